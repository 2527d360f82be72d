import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { SurveySpec, TicketGroupRow } from '../../api/events';
import type { ReservationStore } from '../../stores/ReservationStore';
import { ThemedForm } from '../../forms/theme';

/** What the flow needs of a mounted survey form (the @rjsf Form instance). */
export interface SurveyFormHandle { validateForm(): boolean }
export type SurveyForms = Map<string, SurveyFormHandle>;

/** The survey spec as a JSON Schema object, with questions ordered by their propertyOrder. */
function schemaOf(spec: SurveySpec): { schema: RJSFSchema; uiSchema: UiSchema } {
  const properties = spec.properties ?? {};
  const order = Object.keys(properties).sort((a, b) =>
    Number(properties[a].propertyOrder ?? Number.MAX_SAFE_INTEGER) - Number(properties[b].propertyOrder ?? Number.MAX_SAFE_INTEGER));
  const cleaned = Object.fromEntries(order.map((k) => {
    const { propertyOrder: _omit, ...rest } = properties[k];
    return [k, rest];
  }));
  return {
    schema: { type: 'object', title: spec.title, description: spec.description, required: spec.required ?? [], properties: cleaned } as RJSFSchema,
    uiSchema: { 'ui:order': [...order, '*'], 'ui:submitButtonOptions': { norender: true } },
  };
}

const SurveyForm = observer(function SurveyForm({ store, group, forms }: { store: ReservationStore; group: TicketGroupRow; forms: SurveyForms }) {
  const { schema, uiSchema } = schemaOf(group.additional_info_spec!);
  const refProp = { ref: (form: SurveyFormHandle | null) => { if (form) forms.set(group.id, form); else forms.delete(group.id); } };
  return (
    <div className="survey-form">
      <ThemedForm {...(refProp as object)} schema={schema} uiSchema={uiSchema} idPrefix={`survey-${group.id}`}
        formData={store.surveyAnswers.get(group.id) ?? {}}
        onChange={(e) => store.setSurveyAnswers(group.id, (e.formData ?? {}) as Record<string, unknown>)}>
        <></>
      </ThemedForm>
    </div>
  );
});

/** Survey questions of the groups with tickets chosen (spec section 2), answers keyed by group id. */
export const SurveySection = observer(function SurveySection({ store, forms }: { store: ReservationStore; forms: SurveyForms }) {
  const { t } = useTranslation();
  const titleId = useId();
  const groups = store.surveyGroups;
  if (groups.length === 0) return null;
  return (
    <section className="reserve-section survey-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="reserve-section__title">{t('survey.legend')}</h3>
      {groups.map((group) => <SurveyForm key={group.id} store={store} group={group} forms={forms} />)}
    </section>
  );
});
