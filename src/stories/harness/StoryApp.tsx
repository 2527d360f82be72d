import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import translation from '../../../locales/en/translation.json';
import { getSellerConfig } from '../../api/config';
import { applyTheme } from '../../app/theme';
import { createI18n } from '../../i18n';
import { RootStore } from '../../stores/RootStore';
import { StoresProvider } from '../../stores/context';
import type { KeyValueStorage } from '../../stores/CartStore';
import { CART_ID, MEMBER_CART_ID, demoReplies, type DemoScenario } from './demo';
import { drawRecordedImages } from './images';
import { storyApi, type Replies } from './story-api';
import { STORY_MARKER } from './marker';
import '../../styles/app.css';

export interface StoryAppProps extends DemoScenario {
  /** The address the story's router starts at (a screen story: its route). */
  path?: string;
  /** Answers of the story's own, over the demo seller's. */
  replies?: Replies;
  /** What the shopper did before the story is shown (asked to remove a cart item, ...), on the booted stores. */
  setup?: (store: RootStore) => void;
  children: ReactNode;
}

interface Booted {
  store: RootStore;
  i18n: I18n;
}

function memoryStorage(entries: Record<string, string>): KeyValueStorage {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

/** The boot of src/main.tsx on the story's answers: seller config -> i18n with the seller's strings -> stores, and the
 *  startup reads the app makes (the stored cart, who is logged in). */
async function boot(scenario: DemoScenario, replies: Replies | undefined): Promise<Booted> {
  const api = storyApi({ ...demoReplies(scenario), ...replies });
  const sellerConfig = await getSellerConfig(api);
  const store = new RootStore({
    api,
    deployment: { apiBaseUrl: '/api', cachedApiBaseUrl: '/cached_api', defaultSeller: sellerConfig.seller.slug },
    sellerConfig,
    sellerPrefix: null,
    storage: memoryStorage(
      scenario.cart ? { [`storefront.cart.${sellerConfig.seller.id}`]: scenario.cart === 'member' ? MEMBER_CART_ID : CART_ID } : {},
    ),
    readCookies: () => null,
  });
  await Promise.all([store.cart.loadAtStartup(), store.session.start(true)]);
  return { store, i18n: createI18n(structuredClone(translation), sellerConfig.strings) };
}

/**
 * A story's storefront: the real stores fed with the demo seller's recorded answers (src/stories/harness/demo.ts), the
 * seller's theme on the page, the real translation with the seller's overrides, and a router at `path`.
 */
export function StoryApp({ path = '/', replies, setup, children, ...scenario }: StoryAppProps) {
  const [booted, setBooted] = useState<Booted | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const probe = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let live = true;
    boot(scenario, replies).then(
      (b) => {
        setup?.(b.store);
        if (live) setBooted(b);
      },
      (error: unknown) => live && setFailed(error),
    );
    return () => {
      live = false;
    };
    // A story's scenario is fixed for its life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useLayoutEffect(() => {
    // The seller's images from the recording (harness/images.ts: the viewer's server has them under other ids),
    // set up on the story's page before the booted story draws its first image.
    const doc = probe.current?.ownerDocument;
    if (doc) drawRecordedImages(doc);
  }, []);
  useLayoutEffect(() => {
    // The page the story is drawn in (Ladle's iframe when a width is set), as main.tsx themes the app's page.
    const doc = probe.current?.ownerDocument;
    if (booted && doc) {
      applyTheme(booted.store.config, doc.documentElement);
      doc.documentElement.setAttribute('lang', booted.i18n.language);
    }
  }, [booted]);
  if (failed) return <pre role="alert">{String(failed)}</pre>;
  if (!booted) return <span ref={probe} />;
  return (
    <I18nextProvider i18n={booted.i18n}>
      <StoresProvider store={booted.store}>
        <MemoryRouter initialEntries={[path]}>
          <span ref={probe} hidden {...{ [STORY_MARKER]: '' }} />
          {children}
        </MemoryRouter>
      </StoresProvider>
    </I18nextProvider>
  );
}
