import { Component, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Shown while a route's code loads on the first visit. */
export function RouteLoading() {
  const { t } = useTranslation();
  return (
    <p className="page-status" role="status">
      {t('app.loading')}
    </p>
  );
}

/** A route that throws: the spec's unexpected-error message with a Continue link to the seller home. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <div className="container page">
      <h1>{t('app.unexpectedError')}</h1>
      <p>
        <Link to="/" reloadDocument>
          {t('app.continue')}
        </Link>
      </p>
    </div>
  );
}

/** Catches a screen that throws while rendering (or whose chunk fails to load) and shows RouteError (with
 *  `alongsideError`) until the visitor navigates elsewhere (`resetKey` changes). */
export class RouteErrorBoundary extends Component<
  { resetKey: string; children: ReactNode; alongsideError?: ReactNode },
  { error: unknown }
> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error !== null) this.setState({ error: null });
  }

  render() {
    if (this.state.error === null) return this.props.children;
    return (
      <>
        <RouteError />
        {this.props.alongsideError}
      </>
    );
  }
}
