import type { RouteObject } from 'react-router';
import type { RootStore } from '../stores/RootStore';

/** Routes of the account area, recovery and resend screens (spec section 2), spread into the route table. */
export function accountRoutes(root: RootStore): RouteObject[] {
  void root;
  return [];
}
