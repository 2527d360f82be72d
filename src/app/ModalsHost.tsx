import { lazy, Suspense, useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { useStores } from '../stores/context';
// Cart, dialog and checkout styles: the cart and its dialogs can show on any screen.
import '../styles/checkout.css';

const loadDialogs = () => import('./Dialogs');
const Dialogs = lazy(async () => ({ default: (await loadDialogs()).Dialogs }));

/** Hosts the dialogs (app/Dialogs.tsx). Their code loads with the first dialog, or as soon as the cart holds
 *  something, so the expiry and extend dialogs are ready before they are needed. */
export const ModalsHost = observer(function ModalsHost() {
  const { ui, cart } = useStores();
  const cartInUse = !cart.isEmpty;
  useEffect(() => {
    if (cartInUse) void loadDialogs();
  }, [cartInUse]);
  if (!ui.modal && !cart.pendingRemoval && !cart.showExtendOffer) return null;
  return (
    <Suspense fallback={null}>
      <Dialogs />
    </Suspense>
  );
});
