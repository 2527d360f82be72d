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

/**
 * One group's survey form (spec section 2: a form built from the group's spec), its answers held by the caller; the
 * mounted @rjsf form is handed to `onForm` so the submit can run its validation. The event page and the
 * buy-membership form ask their groups' questions with it.
 */
export const SurveyForm = observer(function SurveyForm({
  groupId,
  spec,
  answers,
  onAnswers,
  onForm,
}: {
  groupId: string;
  spec: NonNullable<TicketGroupRow['additional_info_spec']>;
  answers: Record<string, unknown>;
  onAnswers: (answers: Record<string, unknown>) => void;
  onForm: (form: SurveyFormHandle | null) => void;
}) {
  const { schema, uiSchema } = surveyFormSchema(spec);
  return (
    <div className="survey-form">
      <ThemedForm
        {...({ ref: onForm } as object)}
        schema={schema}
        uiSchema={uiSchema}
        idPrefix={`survey-${groupId}`}
        formData={answers}
        onChange={(e) => onAnswers((e.formData ?? {}) as Record<string, unknown>)}
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
        <SurveyForm
          key={group.id}
          groupId={group.id}
          spec={group.additional_info_spec!}
          answers={store.surveyAnswers.get(group.id) ?? {}}
          onAnswers={(answers) => store.setSurveyAnswers(group.id, answers)}
          onForm={(form) => (form ? forms.set(group.id, form) : forms.delete(group.id))}
        />
      ))}
    </section>
  );
});
