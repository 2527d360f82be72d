import { useTranslation } from 'react-i18next';
import type { LoginMessage } from '../../domain/login';

/** Draws a LoginMessage: an i18n key (seller strings can replace it) or a text from the server or config. */
export function LoginMessageText({ message }: { message: LoginMessage }) {
  const { t } = useTranslation();
  return <>{'text' in message ? message.text : t(message.key, message.values)}</>;
}

/** The flow's error and its notes (remaining attempts, new link needed), announced as they appear. */
export function LoginAlert({ error, notes }: { error: LoginMessage | null; notes: LoginMessage[] }) {
  if (!error && notes.length === 0) return null;
  return (
    <div className="notice--error login-form__error" role="alert">
      {error && (
        <p>
          <LoginMessageText message={error} />
        </p>
      )}
      {notes.map((note, i) => (
        <p key={i}>
          <LoginMessageText message={note} />
        </p>
      ))}
    </div>
  );
}
