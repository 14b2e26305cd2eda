// The providers this program serves. Kept apart from their definitions so that the start-up
// path (provider/main.ts) knows the names without loading any provider code.
export const PROVIDER_NAMES = ["tsdb", "containerbackup"] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}
