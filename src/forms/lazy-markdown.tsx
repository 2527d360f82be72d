import { lazy, Suspense, type ComponentProps, type FC } from 'react';
import type { Markdown as MarkdownComponent } from 'markdown-to-jsx/react';

/**
 * What @rjsf/core gets when it imports `Markdown` from markdown-to-jsx (the build resolves its imports here:
 * `lazyMarkdown()` in vite.config.ts). @rjsf draws markdown only where a uiSchema asks for it
 * (`ui:enableMarkdownInDescription`, and its error for a broken schema), which none of our forms does, yet the library
 * was about 31 KB of the form chunk's 64 KB gzipped on every screen with a form (issue 19). Now it downloads the
 * first time such a text is drawn; meanwhile, or if it cannot be downloaded, the text shows as it is written.
 */
type Props = ComponentProps<typeof MarkdownComponent>;

/** The text unformatted, in the element markdown-to-jsx would wrap it in. */
const PlainText: FC<Props> = ({ children, options }) => {
  const Wrapper = options?.wrapper ?? 'span';
  return Wrapper === null ? <>{children}</> : <Wrapper>{children}</Wrapper>;
};

const Loaded = lazy(() =>
  import('markdown-to-jsx/react').then(
    (m): { default: FC<Props> } => ({ default: m.Markdown }),
    () => ({ default: PlainText }),
  ),
);

export function Markdown(props: Props) {
  return (
    <Suspense fallback={<PlainText {...props} />}>
      <Loaded {...props} />
    </Suspense>
  );
}
