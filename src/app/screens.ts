import { lazy, type ComponentType } from 'react';

/** A screen in its own chunk, so the events listing downloads only what it draws. */
export function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

export const NotFoundScreen = screen(() => import('../screens/not-found/NotFoundScreen'), 'NotFoundScreen');
