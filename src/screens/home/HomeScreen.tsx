import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { ScreenSections } from '../../components/ScreenSections';
import { useDocumentTitle } from '../../app/useDocumentTitle';

/** Home with membership presell on. The login / join / guest options arrive with accounts; until then the
 *  one thing that works is browsing events. (Presell off never renders this: the route redirects.) */
export const HomeScreen = observer(function HomeScreen() {
  const { t } = useTranslation();
  const { config } = useStores();
  const title = t('home.title', { name: config.seller.name });
  useDocumentTitle(title);
  return (
    <div className="container page home">
      <ScreenSections screen="home" sections={{
        heading: () => <h1 className="page-title">{title}</h1>,
        options: () => <p><Link className="button" to="/events">{t('home.browseEvents')}</Link></p>,
      }} />
    </div>
  );
});
