import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
// The widget without its bundled workers and styles (strict CSP: no blob: workers, no injected <style>): its
// proof-of-work worker is a file of our own origin, built by Vite, and its styles a stylesheet of this chunk.
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import type { CaptchaHandle } from './captcha';

/**
 * ALTCHA (issue 14): the `altcha` widget, invisible, solving the server's challenge (PBKDF2/SHA-256, the only algorithm
 * the server hands out) in a Web Worker when the shopper pays. A lazy chunk of the checkout, fetched only where a guest
 * must solve it: no other page loads it (bench/budget.json).
 */
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

interface AltchaElement extends HTMLElement {
  configure(options: Record<string, unknown>): void;
  verify(): Promise<{ payload?: string | null } | null>;
  getState(): string;
}

export default function AltchaWidget({
  challenge,
  handleRef,
}: {
  /** GET captcha/challenge (CheckoutStore.captchaChallenge): a new one for every checkout call */
  challenge: () => Promise<Record<string, unknown>>;
  handleRef: Ref<CaptchaHandle | null>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<{ element: AltchaElement; ready: Promise<void> } | null>(null);
  useEffect(() => {
    const element = document.createElement('altcha-widget') as AltchaElement;
    // Its methods exist once it has mounted, which it says with 'load'.
    const ready = new Promise<void>((resolve) => element.addEventListener('load', () => resolve(), { once: true }));
    element.setAttribute('display', 'invisible');
    element.setAttribute('auto', 'off');
    box.current?.appendChild(element);
    widget.current = { element, ready };
    return () => {
      element.remove();
      widget.current = null;
    };
  }, []);

  useImperativeHandle(
    handleRef,
    () => ({
      async solve() {
        const current = widget.current;
        if (!current) throw new Error('the captcha is not ready');
        await current.ready;
        current.element.configure({ challenge: await challenge(), hideFooter: true, hideLogo: true });
        const result = await current.element.verify();
        if (result?.payload) return { provider: 'altcha', token: result.payload };
        // Expired or given up: the checkout stops without a word; a failure to solve is said as such.
        if (current.element.getState() === 'error') throw new Error('the captcha could not be solved');
        return null;
      },
    }),
    [challenge],
  );
  return <div ref={box} className="captcha__widget" />;
}
