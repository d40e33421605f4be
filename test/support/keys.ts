/** The API key secrets every test file can use (seeded by test/support/setup.ts). */
export const KEYS = {
  all: "sfk_test_all_scopes",
  read: "sfk_test_read_only",
  write: "sfk_test_write_only",
  admin: "sfk_test_admin_only",
  revoked: "sfk_test_revoked",
} as const;

export type KeyName = keyof typeof KEYS;

export const KEY_SCOPES: Record<KeyName, string[]> = {
  all: ["read", "write", "admin"],
  read: ["read"],
  write: ["write"],
  admin: ["admin"],
  revoked: ["read", "write", "admin"],
};
