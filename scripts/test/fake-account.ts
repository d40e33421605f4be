/** The Cloudflare account the fake wrangler (fake-wrangler.ts) plays, as kept in its state.json. */
export interface FakeAccount {
  loggedIn: boolean;
  queues: string[];
  d1: { name: string; uuid: string }[];
  r2: string[];
  /** Each deploy, with the vars of the version it deployed. */
  deployments: { worker: string; env: string; vars: Record<string, string> }[];
  /** Every call's arguments, in order. */
  calls: string[][];
}

export const emptyAccount = (): FakeAccount => ({
  loggedIn: true,
  queues: [],
  d1: [],
  r2: [],
  deployments: [],
  calls: [],
});
