// The Reflect metadata API that @peculiar/x509's dependency injection (tsyringe) requires.
// The usual polyfill package is not a dependency of schemaform, and x509 only needs the
// define/get calls below, so this small WeakMap-backed version stands in for it. It installs
// itself only when no polyfill is present.
type Store = Map<unknown, unknown>;
const metadata = new WeakMap<object, Store>();

function own(target: object): Store | undefined {
  return metadata.get(target);
}

function defineMetadata(key: unknown, value: unknown, target: object): void {
  let store = metadata.get(target);
  if (!store) metadata.set(target, (store = new Map()));
  store.set(key, value);
}

function getOwnMetadata(key: unknown, target: object): unknown {
  return own(target)?.get(key);
}

function getMetadata(key: unknown, target: object): unknown {
  for (let current: object | null = target; current; current = Object.getPrototypeOf(current) as object | null) {
    const store = own(current);
    if (store?.has(key)) return store.get(key);
  }
  return undefined;
}

const api = {
  defineMetadata,
  getOwnMetadata,
  getMetadata,
  hasMetadata: (key: unknown, target: object) => getMetadata(key, target) !== undefined,
  hasOwnMetadata: (key: unknown, target: object) => own(target)?.has(key) ?? false,
  metadata: (key: unknown, value: unknown) => (target: object) => defineMetadata(key, value, target),
};

const reflect = Reflect as unknown as Record<string, unknown>;
if (typeof reflect.getMetadata !== "function") {
  for (const [name, fn] of Object.entries(api)) reflect[name] = fn;
}
