import type { ApiClient } from '../api/http';
import { staffMe, type StaffAnswer } from '../api/staff';
import { previewBoot } from '../domain/preview';
import type { RootStoreDeps } from '../stores/RootStore';

/**
 * Boot for a member of staff (issue 18): main.tsx loads this only when the staff marker cookie is there (shoppers never
 * ask, nor download it). The preview's
 * content block set and date apply before the stores are made, so every screen starts as the previewed visitor's would.
 */
export async function staffBoot(api: ApiClient): Promise<StaffAnswer | null> {
  // The bar's chunk downloads beside the staff read, so it is there when the first screen draws instead of popping in
  // after it (AppShell's lazy import then resolves from the module cache).
  void import('./staff/StaffBar').catch(() => undefined);
  try {
    return await staffMe(api);
  } catch {
    return null;
  }
}

export function withPreview(boot: RootStoreDeps, staff: StaffAnswer | null): RootStoreDeps {
  if (!staff) return boot;
  const { blocks, now } = previewBoot(staff.preview, boot.sellerConfig.contentBlocks);
  return {
    ...boot,
    staff,
    staffBlockNames: boot.sellerConfig.contentBlocks.map((b) => b.name),
    sellerConfig: { ...boot.sellerConfig, contentBlocks: blocks },
    ...(now ? { now } : {}),
  };
}
