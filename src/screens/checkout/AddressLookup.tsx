import { useEffect } from 'react';
import { useCombobox, type UseComboboxState, type UseComboboxStateChangeOptions } from 'downshift';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { AddressLookupStore, isContainer, type AddressLookupNews } from '../../stores/AddressLookupStore';
import type { AddressSuggestion } from '../../contract/address';
import type { AddressFill } from '../../domain/address';
import type { TFunction } from 'i18next';

const itemToString = (item: AddressSuggestion | null) => (item ? item.Text : '');

/** The live region's words for the lookup's news. */
function newsText(t: TFunction, news: AddressLookupNews): string {
  switch (news.kind) {
    case 'found':
      return news.count === 0 ? t('address.noResults') : t('address.results', { count: news.count });
    case 'filled': {
      const f = news.fields;
      return t('address.filled', { address: [f.address, f.address_more, f.city, f.zip_code].filter(Boolean).join(', ') });
    }
    case 'manual':
      return t('address.manual');
    default:
      return '';
  }
}

/**
 * The address lookup (issue 22; spec sections 5, 8 and 9): a combobox (downshift's useCombobox: arrow keys, Enter,
 * Escape, ARIA roles) over AddressLookupStore, which searches from 4 characters 300 ms after the last key. A
 * container (a building) opens into its addresses; an address fills the form's address fields and leaves its Line1
 * in the box. A polite live region says how many were found and what was filled in. If the provider fails, the box
 * gives way to manual entry and says so.
 *
 * downshift owns the typed text (its own inputValue, set from outside only by a pick): a controlled value fed back
 * through the form arrives a render late and loses keys.
 */
export default observer(function AddressLookup({
  id,
  label,
  initialText,
  invalid,
  disabled,
  onTextChange,
  onFill,
}: {
  id: string;
  label: string;
  initialText: string;
  invalid: boolean;
  disabled: boolean;
  onTextChange: (text: string) => void;
  onFill: AddressFill;
}) {
  const { t } = useTranslation();
  const { api } = useStores();
  const lookup = useScreenStore(() => new AddressLookupStore({ api }), [api]);
  const items = lookup.items;
  const hintId = `${id}__hint`;

  // Manual entry: the search is no longer a search (no 'not picked' error for it), and with the box gone the address
  // field takes the focus it had.
  useEffect(() => {
    if (!lookup.manual) return;
    onTextChange('');
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[autocomplete="address-line1"]')?.focus());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the lookup gives way
  }, [lookup.manual]);

  async function choose(item: AddressSuggestion) {
    const fields = await lookup.choose(item);
    if (!fields) return;
    combobox.setInputValue(fields.address);
    onFill({ ...fields, address_search: fields.address });
  }

  const combobox = useCombobox<AddressSuggestion>({
    items,
    itemToString,
    inputId: id,
    initialInputValue: initialText,
    // Every choice is news (the same building may be opened twice): no item stays selected.
    selectedItem: null,
    onInputValueChange: ({ inputValue, type }) => {
      if (type !== useCombobox.stateChangeTypes.InputChange) return;
      onTextChange(inputValue ?? '');
      lookup.typed(inputValue ?? '');
    },
    onSelectedItemChange: ({ selectedItem }) => {
      if (selectedItem) void choose(selectedItem);
    },
    stateReducer: (state: UseComboboxState<AddressSuggestion>, { type, changes }: UseComboboxStateChangeOptions<AddressSuggestion>) => {
      switch (type) {
        case useCombobox.stateChangeTypes.InputKeyDownEnter:
        case useCombobox.stateChangeTypes.ItemClick: {
          // The box keeps what was typed until the picked address brings its Line1; a container keeps the list open.
          const item = changes.selectedItem;
          const open = !!item && isContainer(item);
          return { ...changes, inputValue: state.inputValue, isOpen: open, highlightedIndex: open ? 0 : -1 };
        }
        case useCombobox.stateChangeTypes.ControlledPropUpdatedSelectedItem:
          // With no item ever selected, downshift would empty the box after each choice: the pick sets it instead.
          return { ...changes, inputValue: state.inputValue };
        case useCombobox.stateChangeTypes.InputBlur:
          // Leaving the box chooses nothing.
          return { ...changes, selectedItem: null, inputValue: state.inputValue };
        default:
          return changes;
      }
    },
  });

  const open = combobox.isOpen && items.length > 0;
  // `${id}__error` is @rjsf's id of the field's error text (its errorId(), not imported: @rjsf stays out of this chunk).
  const describedBy = [hintId, invalid ? `${id}__error` : null].filter(Boolean).join(' ');
  const live = (
    <p className="visually-hidden" role="status" aria-live="polite">
      {newsText(t, lookup.news)}
    </p>
  );
  // The live region comes first and stays when the box gives way to manual entry, so the change is read out (a region
  // that appears with its text often is not).
  return (
    <div className="address-lookup">
      {live}
      {lookup.manual ? (
        <p className="address-lookup__manual">{t('address.manual')}</p>
      ) : (
        <>
          <label className="form-field__label" {...combobox.getLabelProps()}>
            {label}
          </label>
          <p id={hintId} className="address-lookup__hint">
            {t('address.searchHint')}
          </p>
          <input
            className="form-control"
            type="text"
            autoComplete="off"
            spellCheck={false}
            disabled={disabled}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            aria-busy={lookup.busy || undefined}
            {...combobox.getInputProps()}
          />
          <ul className={`address-lookup__menu${open ? ' address-lookup__menu--open' : ''}`} {...combobox.getMenuProps()}>
            {open &&
              items.map((item, index) => (
                <li
                  key={item.Id}
                  className={`address-lookup__item${combobox.highlightedIndex === index ? ' address-lookup__item--active' : ''}`}
                  {...combobox.getItemProps({ item, index })}
                >
                  <span className="address-lookup__text">{item.Text}</span>{' '}
                  <span className="address-lookup__description">{item.Description}</span>
                  {isContainer(item) && (
                    <>
                      <span className="address-lookup__more" aria-hidden="true">
                        {' '}
                        ›
                      </span>
                      <span className="visually-hidden">{t('address.openContainer')}</span>
                    </>
                  )}
                </li>
              ))}
          </ul>
        </>
      )}
    </div>
  );
});
