import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { Modal } from '../components/Modal';
import { CartContents } from '../components/CartWidget';

/** Draws the dialog UiStore says is open; screens open dialogs by name, never by mounting them. */
export const ModalsHost = observer(function ModalsHost() {
  const { t } = useTranslation();
  const { ui } = useStores();
  switch (ui.modal?.name) {
    case 'mobile-cart':
      return <Modal title={t('cart.title')} onClose={ui.closeModal}><CartContents /></Modal>;
    default:
      return null;
  }
});
