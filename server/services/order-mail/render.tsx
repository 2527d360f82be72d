import { render } from '@react-email/components';
import { OrderMail, type OrderMailProps } from './template';

/** The order mail as HTML and plain text. Its own module, imported when a mail is sent, because React Email
 *  is the heaviest import of the server and a start need not wait for it. */
export async function renderOrderMail(props: OrderMailProps): Promise<{ html: string; text: string }> {
  return { html: await render(<OrderMail {...props} />), text: await render(<OrderMail {...props} />, { plainText: true }) };
}
