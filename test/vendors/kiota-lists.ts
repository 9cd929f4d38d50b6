import { isUntypedNode, type Parsable, type ParsableFactory, type ParseNode, type ParseNodeFactory, type PrimitiveTypesForDeserializationForCollection } from '@microsoft/kiota-abstractions';
import { JsonParseNode } from '@microsoft/kiota-serialization-json';

/**
 * A JSON parse node for Kiota-generated clients whose deserializers call `getCollectionOfPrimitiveValues()` without
 * the primitive type that `@microsoft/kiota-serialization-json` 1.0.0-preview.109 requires: that release throws
 * "encountered an unsupported type during deserialization undefined" on every non-empty list of strings or numbers
 * (microsoft/kiota-typescript#2061), so `@digitalocean/dots` 1.19.0 with the Kiota its own ranges resolve cannot read a
 * droplet from any server. This node reads such a list as the JSON holds it and otherwise does what `JsonParseNode`
 * does, delegating every leaf read to it: objects are filled through the client's own deserializer tables, unknown
 * members land in `additionalData`. No backing store (the generated models these tests read do not use one).
 */
export class ListReadingParseNode implements ParseNode {
  readonly #json: unknown;
  readonly #leaf: JsonParseNode;
  onBeforeAssignFieldValues: ((value: Parsable) => void) | undefined;
  onAfterAssignFieldValues: ((value: Parsable) => void) | undefined;

  /** `json` is the decoded JSON value this node stands for (an object, list or primitive). */
  constructor(json: unknown) {
    this.#json = json;
    this.#leaf = new JsonParseNode(json);
  }

  getStringValue = (): string | undefined => this.#leaf.getStringValue();
  getBooleanValue = (): boolean | undefined => this.#leaf.getBooleanValue();
  getNumberValue = (): number | undefined => this.#leaf.getNumberValue();
  getGuidValue = (): string | undefined => this.#leaf.getGuidValue();
  getDateValue = (): Date | undefined => this.#leaf.getDateValue();
  getDurationValue = (): ReturnType<ParseNode['getDurationValue']> => this.#leaf.getDurationValue();
  getDateOnlyValue = (): ReturnType<ParseNode['getDateOnlyValue']> => this.#leaf.getDateOnlyValue();
  getTimeOnlyValue = (): ReturnType<ParseNode['getTimeOnlyValue']> => this.#leaf.getTimeOnlyValue();
  getByteArrayValue = (): ArrayBuffer | undefined => this.#leaf.getByteArrayValue();
  getEnumValue = <T>(type: unknown): T | undefined => this.#leaf.getEnumValue<T>(type);
  getCollectionOfEnumValues = <T>(type: unknown): T[] => this.#leaf.getCollectionOfEnumValues<T>(type);

  getChildNode = (identifier: string): ParseNode | undefined => {
    const json = this.#json;
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
    const child: unknown = (json as Record<string, unknown>)[identifier];
    return child === undefined ? undefined : new ListReadingParseNode(child);
  };

  /** The list as the JSON holds it when the caller names no type; with a type, what `JsonParseNode` answers. */
  getCollectionOfPrimitiveValues = <T>(primitiveType?: PrimitiveTypesForDeserializationForCollection): T[] | undefined => {
    if (!Array.isArray(this.#json)) return undefined;
    return primitiveType === undefined ? (this.#json as T[]) : this.#leaf.getCollectionOfPrimitiveValues<T>(primitiveType);
  };

  getCollectionOfObjectValues = <T extends Parsable>(parsableFactory: ParsableFactory<T>): T[] | undefined => {
    if (!Array.isArray(this.#json)) return undefined;
    return (this.#json as unknown[]).map((item) => new ListReadingParseNode(item).getObjectValue(parsableFactory));
  };

  getObjectValue = <T extends Parsable>(parsableFactory: ParsableFactory<T>): T => {
    const json = this.#json;
    const model = {} as T;
    // Untyped members and non-objects keep JsonParseNode's own reading.
    if (json === null || typeof json !== 'object' || Array.isArray(json) || isUntypedNode(parsableFactory(this)(model))) return this.#leaf.getObjectValue(parsableFactory);
    this.onBeforeAssignFieldValues?.(model);
    const fields = parsableFactory(this)(model);
    for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
      const read = fields[name];
      if (read !== undefined) {
        read(new ListReadingParseNode(value));
      } else {
        const holder = model as { additionalData?: Record<string, unknown> };
        holder.additionalData ??= {};
        holder.additionalData[name] = value;
      }
    }
    this.onAfterAssignFieldValues?.(model);
    return model;
  };
}

/** The `application/json` parse-node factory that hands out {@link ListReadingParseNode}s. */
export class ListReadingParseNodeFactory implements ParseNodeFactory {
  getValidContentType(): string {
    return 'application/json';
  }

  getRootParseNode(_contentType: string, content: ArrayBuffer): ParseNode {
    return new ListReadingParseNode(JSON.parse(new TextDecoder().decode(content)));
  }
}
