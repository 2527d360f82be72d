import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { TicketGroupRow } from '../../contract/catalogue';
import { surveyFormSchema } from '../../domain/survey-schema';
import type { ReservationStore } from '../../stores/ReservationStore';
import { ThemedForm } from '../../forms/theme';

/** What the flow needs of a mounted survey form (the @rjsf Form instance). */
export interface SurveyFormHandle {
  validateForm(): boolean;
}
export type SurveyForms = Map<string, SurveyFormHandle>;

const SurveyForm = observer(function SurveyForm({
  store,
  group,
  forms,
}: {
  store: ReservationStore;
  group: TicketGroupRow;
  forms: SurveyForms;
}) {
  const { schema, uiSchema } = surveyFormSchema(group.additional_info_spec!);
  const refProp = {
    ref: (form: SurveyFormHandle | null) => {
      if (form) forms.set(group.id, form);
      else forms.delete(group.id);
    },
  };
  return (
    <div className="survey-form">
      <ThemedForm
        {...(refProp as object)}
        schema={schema}
        uiSchema={uiSchema}
        idPrefix={`survey-${group.id}`}
        formData={store.surveyAnswers.get(group.id) ?? {}}
        onChange={(e) => store.setSurveyAnswers(group.id, (e.formData ?? {}) as Record<string, unknown>)}
      >
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
      <h3 id={titleId} className="reserve-section__title">
        {t('survey.legend')}
      </h3>
      {groups.map((group) => (
        <SurveyForm key={group.id} store={store} group={group} forms={forms} />
      ))}
    </section>
  );
});
