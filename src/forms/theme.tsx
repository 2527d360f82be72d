import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of ThemedForm: an @rjsf Form without the validator and templates, which the theme supplies. */
export type { ThemedFormProps } from './types';
import type { ThemedFormProps } from './types';

// @rjsf is large: it loads only when a screen actually draws a form.
const loadForm = () => lazy(() => import('./ThemedFormImpl'));
let LazyForm = loadForm();

/** The form's code or its validator could not be downloaded: say so where the form would be, and offer to try
 *  again (the rest of the screen, and what the visitor typed elsewhere, stays). */
class FormLoadBoundary extends Component<{ children: ReactNode; fallback: (retry: () => void) => ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    console.error('form could not load', error);
  }
  retry = () => {
    // A lazy component that failed stays failed: the next render gets a new one, and the validators ask again.
    LazyForm = loadForm();
    import('./precompiled')
      .then(
        (m) => m.retryFailedFormValidators(),
        () => {},
      )
      .finally(() => this.setState({ failed: false }));
  };
  render() {
    return this.state.failed ? this.props.fallback(this.retry) : this.props.children;
  }
}

/**
 * The storefront's @rjsf Form: ajv8 validation compiled on the server, our field templates (visible labels, errors linked by
 * aria-describedby, aria-invalid), error messages translated through i18n, no error list at the top
 * (screens show their own summary), first invalid field focused on submit.
 */
export function ThemedForm<T = Record<string, unknown>>(props: ThemedFormProps<T>) {
  const { t } = useTranslation();
  return (
    <FormLoadBoundary
      fallback={(retry) => (
        <div className="form-loading" role="alert">
          <p>{t('app.unexpectedError')}</p>
          <button type="button" className="button button--secondary" onClick={retry}>
            {t('app.retry')}
          </button>
        </div>
      )}
    >
      <Suspense fallback={<p className="form-loading">{t('app.loading')}</p>}>
        <LazyForm {...(props as ThemedFormProps)} />
      </Suspense>
    </FormLoadBoundary>
  );
}
