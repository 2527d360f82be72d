import { createContext, lazy, Suspense, useContext } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { AddressFill } from '../../domain/address';

/** How the lookup fills the purchaser form (CheckoutForm provides it). */
export const AddressFillContext = createContext<AddressFill | null>(null);

// downshift and the lookup come only with a checkout whose seller offers the lookup (bench/budget.json).
const AddressLookup = lazy(() => import('./AddressLookup'));

/** The purchaser form's `address_search` widget: the address lookup, loaded on demand. */
export function AddressSearch(props: WidgetProps) {
  const fill = useContext(AddressFillContext);
  return (
    <Suspense fallback={null}>
      <AddressLookup
        id={props.id}
        label={props.label}
        initialText={typeof props.value === 'string' ? props.value : ''}
        invalid={(props.rawErrors?.length ?? 0) > 0}
        disabled={!!props.disabled || !!props.readonly}
        onTextChange={(text) => props.onChange(text === '' ? undefined : text)}
        onFill={(fields) => fill?.(fields)}
      />
    </Suspense>
  );
}
