import { z } from 'zod';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { InvalidSchemaError, ResponseSerializationError } from 'fastify-type-provider-zod';

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** Types whose check is the same in both directions and that hold no other schema. */
const LEAVES = new Set(['string', 'number', 'int', 'boolean', 'null', 'undefined', 'literal', 'enum', 'any', 'unknown', 'date', 'bigint', 'nan', 'template_literal']);

/**
 * Whether encoding `schema` is the same as parsing it: no codec, transform, pipe, default, catch or lazy part
 * anywhere in it (those are the parts whose result depends on the direction). Unknown kinds count as different.
 */
export function directionFree(schema: unknown, seen = new Set<unknown>()): boolean {
  const def = defOf(schema);
  if (!def) return false;
  if (seen.has(schema)) return true;
  seen.add(schema);
  if (LEAVES.has(def.type)) return true;
  const all = (xs: unknown[]) => xs.every((x) => directionFree(x, seen));
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return all(Object.values(shape)) && (def.catchall === undefined || directionFree(def.catchall, seen));
    }
    case 'array':
      return directionFree(def.element, seen);
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
      return directionFree(def.innerType, seen);
    case 'union':
      return all(def.options as unknown[]);
    case 'record':
      return directionFree(def.keyType, seen) && directionFree(def.valueType, seen);
    case 'tuple':
      return all(def.items as unknown[]) && (def.rest == null || directionFree(def.rest, seen));
    case 'intersection':
      return directionFree(def.left, seen) && directionFree(def.right, seen);
    default:
      return false;
  }
}

function resolveSchema(maybe: unknown): z.ZodType {
  if (maybe instanceof z.ZodType) return maybe;
  const props = (maybe as { properties?: unknown } | undefined)?.properties;
  if (props instanceof z.ZodType) return props;
  throw new InvalidSchemaError(JSON.stringify(maybe));
}

/**
 * fastify-type-provider-zod's response serializer (check the answer against the route's response schema, output
 * only what the schema names, then JSON), with zod's compiled parse for schemas where encoding and parsing are the
 * same (directionFree): `safeEncode` runs zod's generic path, several times slower for the same result.
 * Schemas with a direction-dependent part still go through `safeEncode`.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema: maybe, method, url }) => {
  const schema = resolveSchema(maybe);
  const check = directionFree(schema) ? (data: unknown) => z.safeParse(schema, data) : (data: unknown) => z.safeEncode(schema, data);
  return (data) => {
    const result = check(data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
