/** Marks every story's page (harness/StoryApp.tsx); tests/e2e/stories.spec.ts finds it in the stories build and never
 *  in the storefront's. */
export const STORY_MARKER = 'data-storefront-stories';
