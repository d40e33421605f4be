import { mapOperations } from "./operations.ts";

/**
 * Optional query parameters keep their examples, but the interactive reference must not send them.
 * Scalar fills a parameter's "Test Request" row from the parameter's `examples`/`example`, else from
 * its schema's `default`, first `enum` value, `examples` or `example`, and a row with a value starts
 * enabled: List products sent seven example filters and three enum values, and answered no product.
 * An example marked `x-disabled` (Scalar's extension on the Example Object) is shown but not sent.
 */

type Schema = { example?: unknown; examples?: unknown[]; default?: unknown; enum?: unknown[] };
type Parameter = { in?: string; required?: boolean; schema?: Schema; example?: unknown; examples?: unknown };

/** The value Scalar would send for a parameter, taken from its schema (undefined: none). */
function schemaValue(schema: Schema): unknown {
  return schema.default ?? schema.enum?.[0] ?? schema.examples?.[0] ?? schema.example;
}

/** An optional query parameter whose example is shown in the reference and never sent by it. */
function withDisabledExample(parameter: Parameter): Parameter {
  if (parameter.in !== "query" || parameter.required || !parameter.schema) return parameter;
  const value = parameter.example ?? schemaValue(parameter.schema);
  if (value === undefined) return parameter;
  const { example: _example, ...schema } = parameter.schema;
  const { example: _own, ...rest } = parameter;
  return { ...rest, schema, examples: { example: { value, "x-disabled": true } } };
}

/** Every operation's parameters rewritten by `withDisabledExample`. */
export function disabledQueryExamples<P>(paths: P): P {
  return mapOperations(paths, (operation: { parameters?: Parameter[] }) =>
    operation.parameters
      ? { ...operation, parameters: operation.parameters.map(withDisabledExample) }
      : operation,
  );
}
