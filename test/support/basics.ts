import { apiKeys, store, storeTranslations } from "../../src/db/schema/index.ts";
import { SUPPORTED_LOCALES } from "../../src/lib/locales.ts";
import { apiKeyRow } from "./factories/api-keys.ts";
import { KEY_SCOPES, KEYS, type KeyName } from "./keys.ts";
import { testDb } from "./test-db.ts";

/** Store and API keys every test file needs (storage is isolated per file). */
export async function seedTestBasics() {
  const db = testDb();
  const keys = await Promise.all(
    (Object.entries(KEYS) as [KeyName, string][]).map(async ([name, secret]) => ({
      ...(await apiKeyRow(name, secret, KEY_SCOPES[name])),
      revokedAt: name === "revoked" ? "2026-01-01T00:00:00Z" : null,
    })),
  );
  await db.batch([
    db
      .insert(store)
      .values({
        id: 1,
        primaryLocale: "es-ES",
        enabledLocales: [...SUPPORTED_LOCALES],
        applicableCountries: ["ES", "FR"],
        returnPolicyCountry: "ES",
        returnDays: 30,
      })
      .onConflictDoNothing(),
    db
      .insert(storeTranslations)
      .values(
        ["es-ES", "en-GB", "fr-FR", "de-DE"].map((locale) => ({
          locale,
          name: `Test shop ${locale}`,
          domain: `${locale.slice(0, 2)}.shop.test`,
        })),
      )
      .onConflictDoNothing(),
    db.insert(apiKeys).values(keys).onConflictDoNothing(),
  ]);
}
