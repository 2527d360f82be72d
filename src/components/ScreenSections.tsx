import { Fragment, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { useStores } from '../stores/context';
import { resolveLayout, type ScreenWithLayout, type SectionName } from '../domain/layout';
import { ContentBlock } from './ContentBlock';

interface Props<S extends ScreenWithLayout> {
  screen: S;
  /** How to draw each named section of the screen; the seller's layout decides order and visibility. */
  sections: Record<SectionName<S>, () => ReactNode>;
}

function ScreenSectionsImpl<S extends ScreenWithLayout>({ screen, sections }: Props<S>) {
  const { config, role } = useStores();
  const items = resolveLayout(screen, { configLayout: config.layout, blocks: config.contentBlocks, role });
  return (
    <>
      {items.map((item) =>
        item.kind === 'block' ? (
          <ContentBlock key={`block:${item.block.name}`} name={item.block.name} html={item.block.html} />
        ) : (
          <Fragment key={item.name}>{sections[item.name]()}</Fragment>
        ),
      )}
    </>
  );
}

export const ScreenSections = observer(ScreenSectionsImpl) as typeof ScreenSectionsImpl;

/** A screen whose registry is one 'content' section: the seller's blocks go around it (top and bottom slots, or where
 *  its layout places them). */
export function ScreenContent({
  screen,
  children,
}: {
  screen: 'pending' | 'membership' | 'resend' | 'manage' | 'recovery';
  children: ReactNode;
}) {
  return <ScreenSections screen={screen} sections={{ content: () => children }} />;
}
