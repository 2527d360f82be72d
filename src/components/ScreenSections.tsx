import { Fragment, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { useStores } from '../stores/context';
import { resolveLayout, type ScreenWithLayout, type SectionName } from '../domain/layout';
import { ContentBlock } from './ContentBlock';
import { blockShowsFor, ROLES, type ContentBlockDef } from '../domain/content-blocks';

interface Props<S extends ScreenWithLayout> {
  screen: S;
  /** How to draw each named section of the screen; the seller's layout decides order and visibility. */
  sections: Record<SectionName<S>, () => ReactNode>;
}

function ScreenSectionsImpl<S extends ScreenWithLayout>({ screen, sections }: Props<S>) {
  const { config, role, session } = useStores();
  const items = resolveLayout(screen, { configLayout: config.layout, blocks: config.contentBlocks, role });
  // A page that may be a member's and does not know yet whose it is (SessionStore.awaitingMember) shows the visitor's
  // blocks, but holds those that not every visitor sees: a member is not asked to log in meanwhile, and the place the
  // block keeps spares the listing a jump when the member's own block takes it.
  const held = (block: ContentBlockDef) => session.awaitingMember && !ROLES.every((r) => blockShowsFor(block, r));
  return (
    <>
      {items.map((item) =>
        item.kind === 'block' ? (
          <ContentBlock key={`block:${item.block.name}`} name={item.block.name} html={item.block.html} held={held(item.block)} />
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
