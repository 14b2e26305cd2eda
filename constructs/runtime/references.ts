// Bases of the generated `…OutputReference` and `…List` classes: references to nested objects,
// e.g. `service.timeouts.create`, `vpcs.vpcs.get(0).peeringConnections.get(0).id`. Every getter
// of a generated subclass returns a token that resolves to a Terraform expression; for objects
// that are configuration, the setters, `reset<X>`, `put<X>` and `<x>Input` read and write the
// construct's props through an `InputSlot`, so what is set through a reference is synthesized and
// validated like a constructor prop.
//
// What a prebuilt CDKTF binding does, and where this differs: setting a field after `put<X>`
// changes that field and keeps the others; `put<X>` replaces the whole object; resetting the
// last field removes the object (`put<X>({})` keeps an empty one). Prebuilt bindings ignore a
// field set on an object that was put as a token, and a field set on a list element (the element
// reference is not tied to the list); here the first throws and the second changes the element.
import { ComplexList, ComplexObject, StringMap, type IInterpolatingParent, type IResolvable } from "cdktf";

/** Where the value set through a reference is kept: a key of the props, or of an object or list in them. */
export interface InputSlot {
  get(): unknown;
  /** `undefined` removes the value. */
  set(value: unknown): void;
}

/** The slot of one key of a construct's props. */
export function inputOf<T extends object>(props: T, key: keyof T & string): InputSlot {
  const record = props as Record<string, unknown>;
  return {
    get: () => record[key],
    set: (value) => {
      if (value === undefined) delete record[key];
      else record[key] = value;
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { resolve?: unknown }).resolve !== "function";
}

/**
 * A nested object. `T` is its props type (camelCase) when it is configuration; references to
 * computed objects have no slot and no setters.
 */
export class ObjectReference<T extends object = object> extends ComplexObject {
  constructor(
    parent: IInterpolatingParent,
    attribute: string,
    private readonly slot?: InputSlot,
    fromSet = false,
    index?: number,
  ) {
    super(parent, attribute, fromSet, index);
  }

  /** The object set in the configuration (a token stays a token); undefined when unset. */
  public get internalValue(): T | IResolvable | undefined {
    return this.slot?.get() as T | IResolvable | undefined;
  }
  public set internalValue(value: T | IResolvable | undefined) {
    this.writableSlot("internalValue").set(value);
  }

  /** One field as set in the configuration (not a reference). */
  protected readInput<K extends keyof T>(key: K): T[K] | undefined {
    const value = this.slot?.get();
    return isObject(value) ? (value[key as string] as T[K] | undefined) : undefined;
  }

  /**
   * Sets one field, or removes it with `undefined`. The object is copied, not changed in place:
   * it may be one the user passed to several constructs.
   */
  protected writeInput<K extends keyof T>(key: K, value: T[K] | undefined): void {
    const slot = this.writableSlot(String(key));
    const current = slot.get();
    if (current !== undefined && !isObject(current)) {
      throw new Error(`Cannot set ${String(key)}: ${this.terraformAttribute} is set to a token (a reference or variable), not an object; put an object first`);
    }
    if (value === undefined && (current === undefined || !(key in (current as object)))) return;
    const next: Record<string, unknown> = { ...(current as Record<string, unknown> | undefined) };
    if (value === undefined) delete next[key as string];
    else next[key as string] = value;
    slot.set(Object.keys(next).length > 0 ? next : undefined);
  }

  /** The slot of a nested object or list field, for its reference. */
  protected inputSlot<K extends keyof T>(key: K): InputSlot | undefined {
    if (!this.slot) return undefined;
    return { get: () => this.readInput(key), set: (value) => this.writeInput(key, value as T[K] | undefined) };
  }

  private writableSlot(what: string): InputSlot {
    if (!this.slot) throw new Error(`Cannot set ${what}: ${this.terraformAttribute} is computed by the provider`);
    return this.slot;
  }
}

/** A list (or set) of nested objects; `get(i)` references one element. */
export class ObjectListReference extends ComplexList {
  constructor(
    parent: IInterpolatingParent,
    attribute: string,
    isSet = false,
    private readonly slot?: InputSlot,
  ) {
    super(parent, attribute, isSet);
  }

  /** The list set in the configuration (a token stays a token); undefined when unset. */
  public get internalValue(): unknown[] | IResolvable | undefined {
    return this.slot?.get() as unknown[] | IResolvable | undefined;
  }

  /** The element at `index` (of a set: of `tolist(set)`). */
  get(index: number): ObjectReference {
    return new ObjectReference(this.terraformResource, this.terraformAttribute, this.element(index), this.wrapsSet, index);
  }

  /**
   * The slot of element `index` as written in the configuration (for a set, that order, not
   * Terraform's). Setting a field of an element needs the element: a list is put whole
   * (`put<X>([...])`), since an element set alone would leave holes before it.
   */
  protected element(index: number): InputSlot | undefined {
    const slot = this.slot;
    if (!slot) return undefined;
    return {
      get: () => {
        const list = slot.get();
        return Array.isArray(list) ? list[index] : undefined;
      },
      set: (value) => {
        const list = slot.get();
        if (!Array.isArray(list) || index < 0 || index >= list.length) {
          const size = Array.isArray(list) ? `it has ${list.length}` : "it is not set to a list of objects";
          throw new Error(`Cannot set element ${index} of ${this.terraformAttribute}: ${size}; put the whole list first`);
        }
        const next = list.slice();
        // An element whose last field was reset stays (as `{}`): removing it would move the others.
        next[index] = value ?? {};
        slot.set(next);
      },
    };
  }
}

/**
 * A string map attribute: CDKTF's `StringMap` (`.lookup(key)` references one value), typed so
 * that it also goes wherever a map prop does, e.g. `labels: other.labels`. It resolves to the
 * whole map's reference.
 */
export type StringMapAttribute = StringMap & { readonly [key: string]: string };

export function stringMap(parent: IInterpolatingParent, attribute: string): StringMapAttribute {
  return new StringMap(parent, attribute) as StringMapAttribute;
}
