/** `paths` with every operation (each method of each path) replaced by what `rewrite` makes of it. */
export function mapOperations<P, O>(paths: P, rewrite: (operation: O) => O): P {
  return Object.fromEntries(
    Object.entries(paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, O>).map(([method, operation]) => [method, rewrite(operation)]),
      ),
    ]),
  ) as P;
}
