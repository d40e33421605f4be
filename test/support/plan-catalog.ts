/**
 * A catalog for plan tests as plain SQL (built in workerd and over node:sqlite alike; a second or
 * two for 3,000 products): products with 2 variants each, 3 locales of translations, 2 images, 2
 * categories, 3 market prices per variant, 10 price lists, reviews; suppliers, brands and categories
 * number a sixth of the products, categories with translations in the same 3 locales. Supplier
 * `products / 6` is nobody's, so assigning it is a change.
 */
export function catalogStatements(products: number): string[] {
  const upTo = (n: number) =>
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;
  const refs = Math.floor(products / 6);
  const locales = `(SELECT 'es-ES' AS l UNION ALL SELECT 'en-GB' UNION ALL SELECT 'fr-FR')`;
  return [
    `${upTo(refs)} INSERT INTO suppliers (id, name, internal_id) SELECT i, 'Supplier ' || i, 'PS-' || i FROM n`,
    `${upTo(refs)} INSERT INTO brands (id, name, slug) SELECT i, 'Brand ' || i, 'brand-' || i FROM n`,
    `${upTo(refs)} INSERT INTO categories (id, status) SELECT i, 'published' FROM n`,
    `INSERT INTO category_translations (category_id, locale, name, slug)
      SELECT c.id, l, 'Category ' || c.id, 'category-' || c.id FROM categories c, ${locales}`,
    `${upTo(10)} INSERT INTO price_lists (id, internal_id, is_active, global_discount) SELECT i, 'PL-' || i, 1, '0' FROM n`,
    `${upTo(products)} INSERT INTO products (id, internal_id, product_structure, status, product_kind, stock_management, tax_category, supplier_id, brand_id)
      SELECT i, 'PP-' || i, 'with-variants', 'published', 'physical', 'default', 'standard', 1 + i % ${refs - 1}, 1 + i % ${refs} FROM n`,
    `INSERT INTO product_translations (product_id, locale, name, slug_base, slug)
      SELECT p.id, l, 'Product ' || p.id, 'product-' || p.id, 'product-' || p.id FROM products p, ${locales}`,
    "INSERT INTO product_images (product_id, url, position) SELECT id, 'https://img.example/' || id || '.jpg', 0 FROM products",
    "INSERT INTO product_images (product_id, url, position) SELECT id, 'https://img.example/' || id || '-2.jpg', 1 FROM products",
    `INSERT INTO product_categories (product_id, category_id, position) SELECT id, 1 + id % ${refs}, 0 FROM products`,
    `INSERT INTO product_categories (product_id, category_id, position) SELECT id, 1 + (id + 7) % ${refs}, 1 FROM products`,
    `${upTo(2 * products)} INSERT INTO variants (id, product_id, supplier_id, internal_id, sku, ean, status, position)
      SELECT i, (i + 1) / 2, 1 + ((i + 1) / 2) % ${refs - 1}, 'PV-' || i, 'PSKU-' || i, 'PE' || i, 'published', (i + 1) % 2 FROM n`,
    `INSERT INTO variant_translations (variant_id, locale, name) SELECT v.id, l, 'Variant ' || v.id FROM variants v, ${locales}`,
    `INSERT INTO variant_prices (variant_id, market, currency, list_price)
      SELECT id, 'market_es', 'EUR', '10.00' FROM variants UNION ALL SELECT id, 'market_fr', 'EUR', '11.00' FROM variants
      UNION ALL SELECT id, 'market_en', 'GBP', '9.00' FROM variants`,
    // Price list 1 prices the odd variants; lists 2..10 price every variant.
    `INSERT INTO price_list_variant_prices (price_list_id, variant_id, amount, currency)
      SELECT 1, id, '8.00', 'EUR' FROM variants WHERE id % 2 = 1
      UNION ALL SELECT 2 + id % 9, id, '7.00', 'EUR' FROM variants`,
    `${upTo(products)} INSERT INTO reviews (type, locale, status, rating, content, reviewer_email, product_id, variant_id)
      SELECT 'product', 'es-ES', 'published', 1 + i % 5, 'Fine', 'r' || i || '@example.test', i, 2 * i FROM n`,
  ];
}

/**
 * The platform's growing tables at `jobs` finished jobs: 3 log entries and a webhook delivery each
 * (for a disabled subscription, so no job of a test delivers to it), and as many idempotency keys.
 * All recent, so retention keeps them. Job `i` has the id `00000000-0000-4000-8000-<i, 12 digits>`.
 */
export function platformStatements(jobs: number): string[] {
  const upTo = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${jobs})`;
  return [
    `INSERT INTO webhooks (id, url, events, secret, status) VALUES (900000, 'https://hooks.example/old', '["job.done"]', 'secret', 'disabled')`,
    `${upTo} INSERT INTO jobs (id, type, status, params, total_records, finished_at)
      SELECT printf('00000000-0000-4000-8000-%012d', i), 'variants_bulk_update', 'done', '{}', 1, strftime('%Y-%m-%dT%H:%M:%SZ','now') FROM n`,
    `INSERT INTO job_logs (job_id, severity, code, message)
      SELECT id, 'INFO', NULL, 'grown' FROM jobs UNION ALL SELECT id, 'ERROR', 'NOT_FOUND', 'grown' FROM jobs
      UNION ALL SELECT id, 'WARNING', 'W', 'grown' FROM jobs`,
    `INSERT INTO webhook_deliveries (webhook_id, message_id, event_type, job_id, attempt, status)
      SELECT 900000, 'msg-' || id, 'job.done', id, 1, 'succeeded' FROM jobs`,
    `${upTo} INSERT INTO idempotency_keys (api_key_id, key, fingerprint, state, expires_at)
      SELECT 900000, 'grown-' || i, 'f', 'done', '2999-01-01T00:00:00Z' FROM n`,
  ];
}
