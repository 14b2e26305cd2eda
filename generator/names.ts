// Name conversions shared by the emitters.

export function camelCase(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function pascalCase(snake: string): string {
  const camel = camelCase(snake);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** "tsdb_connector_obj_store" → "connector-obj-store" (the file name within its provider). */
export function fileName(type: string, provider: string, kind: string): string {
  const bare = type === provider ? "provider" : type.slice(provider.length + 1);
  return (kind === "data" ? `data-${bare}` : bare).replace(/_/g, "-");
}
