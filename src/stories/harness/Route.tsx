import { AppRoutes } from '../../app/router';
import { StoryApp, type StoryAppProps } from './StoryApp';

/** A screen story: the app's routes at `path`, header and footer included, on the story's answers. */
export const Route = (props: Omit<StoryAppProps, 'children'>) => (
  <StoryApp {...props}>
    <AppRoutes />
  </StoryApp>
);
