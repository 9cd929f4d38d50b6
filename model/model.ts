import type { Schema, SchemaFailures, Validator } from './schema.js';
import type { StreamModel } from './streams.js';

/**
 * HTTP methods an OpenAPI path item may hold, as the model names them: the fixed fields (3.2 adds `query`), and
 * any other method a 3.2 path item lists under `additionalOperations` (`LINK`, `PURGE`…), in upper case (D87).
 */
export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS' | 'QUERY' | (string & {});

/** A query or path parameter: its schema (2020-12), and how its raw text becomes a value. */
export interface ParameterModel {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Schema;
  /** The schema's main type (`integer`, `string`, `boolean`, `number`, `array`…), `undefined` when unsaid. */
  type: string | undefined;
  int64: boolean;
  validate: Validator;
  /**
   * For an array query parameter sent as one value (`explode: false`): the text between its items (`,` for
   * `style: form`, ` ` for `spaceDelimited`, `|` for `pipeDelimited`); `undefined` when each item is its own
   * `name=value` pair (`explode: true`, OpenAPI's default for `form`).
   */
  delimiter?: string | undefined;
  /**
   * `true` for a query parameter of `style: deepObject` (OpenAPI 3 § Style Values): an object sent as one pair per
   * member, `name[member]=value` (`created[gte]=1700000000`), D326.
   */
  deepObject?: boolean;
  /**
   * `true` for an object query parameter of `style: form` with `explode: true` (OpenAPI's default for a query): sent
   * as one `member=value` pair per member, under no name of its own (`R=100&G=200`), D557. An empty object sends no
   * pair at all, so on the wire it cannot be told from an absent one.
   */
  explodedObject?: boolean;
  /** The parameter's own `example`, or the value of the first of its `examples` (OpenAPI Parameter Object). */
  example?: unknown;
  /** The parameter's `description` (its schema's when it has none), for rules stated only in prose: range bounds (D105), a served list's filters (D113). */
  description?: string | undefined;
}

/** The request body of an operation: its media types and the schema a request must satisfy (`readOnly` forbidden). */
export interface BodyModel {
  required: boolean;
  /**
   * Every media type the spec lists, in its order: JSON ones, and forms (`application/x-www-form-urlencoded`,
   * `multipart/form-data`), which the mock parses, coerces to `schema` and stores like JSON (D54).
   */
  mediaTypes: string[];
  /** The schema as a request sees it: the JSON media type's, else the first media type's (a form's). */
  schema: Schema;
  validate: Validator;
  /**
   * Members a form body sends in bracket notation (`metadata[plan]=pro`, `items[0][price]=p_1`): those whose
   * Encoding Object says `style: deepObject` (OpenAPI 3 § Encoding Object). Other object members travel as JSON text.
   */
  deepObjects?: string[];
  /**
   * The examples the spec gives for the body (the JSON media type's `example`, then its named `examples`), in its
   * order: the values the description itself shows a client sending (D490).
   */
  examples?: unknown[];
}

/** An example the spec gives for a media type: a named one of `examples` (its key), or the media `example` (no name). */
export interface NamedExample {
  name: string | undefined;
  value: unknown;
}

/**
 * One media type of a documented response (`application/json`, `image/png`, `text/plain`…): its schema as a
 * response must satisfy it (`writeOnly` forbidden) and the examples the spec gives for it (media `example`
 * first, then the named `examples`; a schema's own `example` stays in the schema).
 */
export interface ContentModel {
  mediaType: string;
  schema: Schema | undefined;
  validate: Validator | undefined;
  examples: NamedExample[];
  /** The stream this media type documents (`text/event-stream`, JSON Lines, JSON text sequences; D85), if it is sequential. */
  stream?: StreamModel | undefined;
}

/** A response header the spec declares (`Location`, `X-Rate-Limit`…): whether it is required, its schema and example. */
export interface HeaderModel {
  name: string;
  required: boolean;
  schema: Schema;
  /** The header's own `example`, or the first of its `examples`. */
  example: unknown;
  /**
   * The value the description's text gives the header, sent even where it is optional: the description's
   * `info.version` for a header that carries the API's version (spec/DECISIONS.md › D601). Unset for any other.
   */
  value?: string | undefined;
}

/**
 * One documented response: a status (`200`, `4XX`, `default`), and its content. `mediaType`/`schema`/`validate`/
 * `example`/`examples` describe the JSON media type when there is one (else the first); `contents` lists every one.
 */
export interface ResponseModel {
  status: string;
  mediaType: string | undefined;
  /** The schema as a response must satisfy it (`writeOnly` forbidden). */
  schema: Schema | undefined;
  validate: Validator | undefined;
  /** The first example the spec gives for this response, if any. */
  example: unknown;
  /** Every example the spec gives for the media type of `mediaType`, in the spec's order. */
  examples: NamedExample[];
  /** Every documented media type, in the spec's order (empty for a response without body). */
  contents: ContentModel[];
  /** The response headers the spec declares (`Content-Type` left out: the media type says it). */
  headers: HeaderModel[];
  /** The response's `description` (rules stated only in prose, such as a refused reversed range, D107). */
  description?: string | undefined;
  /** The response's declared `links` (OpenAPI Link Object), inline or from `components/links`; absent when none. */
  links?: LinkModel[];
}

/**
 * A declared link (OpenAPI 3 Link Object, spec/DECISIONS.md › D118): which operation a response leads to
 * (`operationId`, or `operationRef` as a JSON pointer into this document such as `#/paths/~1boards~1{ref}/get`),
 * and how that operation's parameters and body are filled: runtime expressions (`$response.body#/key`,
 * `$request.path.username`, `$response.header.Location`) or constants.
 */
export interface LinkModel {
  name: string;
  operationId?: string | undefined;
  operationRef?: string | undefined;
  /** Parameter name (optionally qualified, `path.id`) to a runtime expression or a constant. */
  parameters: Record<string, unknown>;
  requestBody?: unknown;
}

/**
 * How a request authenticates (OpenAPI security schemes): a bearer token, an API key in a header or the query,
 * HTTP basic, or a scheme the model cannot check (OAuth 2, OpenID Connect: then a bearer token is expected).
 */
export type AuthScheme =
  | { kind: 'bearer'; name: string }
  | { kind: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie'; parameter: string; prefix?: string | undefined }
  | { kind: 'basic'; name: string };

/** The part an operation plays for its resource (README › Resources): the convention, or `x-resource`. */
export type Role = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

/**
 * Why the model reads something as it does, for people (`openapi-harness explain`): a sentence, and the decision of
 * spec/DECISIONS.md it follows (`D32`).
 */
export interface Reading {
  reason: string;
  decision: string;
}

/** One operation of the spec, normalised once: everything a request needs, nothing to look up again. */
export interface OperationModel {
  operationId: string;
  method: Method;
  /** The path template as in the spec, for example `/pets/{petId}`. */
  path: string;
  /**
   * The query names the spec's path key held as templates (`/rides?page={page}` → `['page']`), now query parameters
   * (spec/DECISIONS.md › D941): a request holding all of them is this operation's where another shares its path.
   */
  keyQuery?: readonly string[] | undefined;
  /** Matches a path below the base path; one group per template segment, in `pathParams` order. */
  pattern: RegExp;
  pathParams: ParameterModel[];
  queryParams: ParameterModel[];
  /**
   * Header parameters the operation declares, names in lower case; `Accept`, `Content-Type` and `Authorization`
   * are left out (OpenAPI 3: those are described elsewhere and ignored here), and so is a security scheme's key.
   */
  headerParams: ParameterModel[];
  body: BodyModel | undefined;
  /**
   * The boolean member of the request body by which a client asks for a streamed answer (`stream: true`, D86), when
   * the success response documents a stream and the body has such a member; `undefined` otherwise.
   */
  streamMember?: string | undefined;
  /** OpenAPI 3.2 `in: querystring`: the whole query string is one value of this schema (form-encoded object), checked as such (D87). */
  querystring?: ParameterModel | undefined;
  /** The operation's `summary` and `description`, joined (rules stated only in prose, D107). */
  description?: string | undefined;
  /** The operation's `tags`, in its order (the console groups operations by them). */
  tags?: string[] | undefined;
  /** Alternatives the request may satisfy (any one); empty when the spec asks for no credentials. */
  security: AuthScheme[];
  deprecated: boolean;
  /** `x-sunset` of a deprecated operation (an ISO date) when the spec records one. */
  sunset: string | undefined;
  responses: ResponseModel[];
  /** The first documented 2xx status, as a number (`201` for the seed's createPet); 200 when none is. */
  successStatus: number;
  /** The resource this operation belongs to and its part, or `undefined` (answered from examples). */
  resource: ResourceModel | undefined;
  role: Role | undefined;
  /**
   * Where a read, replace, update or delete finds the record's id (spec/DECISIONS.md › D50): `path` (its last
   * template segment, `/pets/{petId}`), `body` (the id property of the body: the classic Petstore's `PUT /pet`), or
   * `parent` (a singleton sub-resource, `/users/{userId}/profile`: the one record under the path's parent, D53);
   * `undefined` for a list, a create, or an operation no resource holds.
   */
  idIn: 'path' | 'body' | 'parent' | undefined;
  /**
   * The member of this operation's success answer that holds the record, when the answer wraps one record in an
   * envelope (`{"droplet": {...}, "links": {...}}`, JSON:API's `{"data": {...}}`; spec/DECISIONS.md › D73);
   * `undefined` when the answer is the record itself (the seed) or the operation plays no record part.
   */
  answerEnvelope?: string | undefined;
  /** The member of the request body that holds the record, when the body wraps it (`{"user": {...}}`, JSON:API; D73). */
  bodyEnvelope?: string | undefined;
  /** Error bodies in the shape the spec documents for each status of this operation (seed: `Error`). */
  errors: ErrorShape;
  /**
   * The address of the operation's own `servers` (of the operation, else of its path item) when none of them is one
   * of the document's: the operation is served elsewhere (a presigned upload URL, another host), so a target at
   * the API's base address is not judged on it (spec/DECISIONS.md › D78). `undefined` for the usual operation.
   */
  servedElsewhere?: string | undefined;
  /**
   * The resource whose record this operation acts on and answers (spec/DECISIONS.md › D323): a `POST` on a verb
   * below the item path (`/payment_intents/{intent}/cancel`) whose success is that record. The mock writes the
   * body's members the record holds and answers the record; the operation plays no role (`resource` stays unset).
   */
  acts?: ResourceModel | undefined;
  /** Why the operation plays its part (or none): the rule of the resource reading that decided it (model/resources.ts). */
  reading?: Reading | undefined;
}

/**
 * A query parameter of a list operation that keeps only the records whose `property` matches its value
 * (spec/DECISIONS.md › D33, D47). `match` says how:
 * - `equal`: a scalar parameter, a scalar property: equal values (int64 exact);
 * - `in`: an array parameter (`?status=a&status=b`, `?status=a,b`), a scalar property: the record's value is one of them;
 * - `contains`: a scalar parameter, an array property: one of the record's items is the value;
 * - `overlap`: an array parameter, an array property: one of the record's items is one of the values.
 * An item that is an object matches a value when one of its scalar members equals it (`tags: [{name: "a"}]` for `?tags=a`).
 * `resource.filters` holds only the `equal` filters of the main list (the stores index those).
 */
export interface FilterModel {
  parameter: ParameterModel;
  property: string;
  /** The values the property (or, for an array property or parameter, its items) can take when the schema lists them (`enum`, boolean). */
  values: unknown[] | undefined;
  /** How the parameter's value is compared with the record's; `equal` when absent. */
  match?: FilterMatch;
  /**
   * Values of the parameter that ask for no filter (spec/DECISIONS.md › D142): an enum value `all` or `any` no
   * record holds (`state=all` beside `open`, `closed`), or one the parameter's description says lists everything.
   */
  any?: unknown[];
}

/** How a filter compares (see {@link FilterModel}). */
export type FilterMatch = 'equal' | 'in' | 'contains' | 'overlap';

/** A member of a JSON body, by its names from the top: `['meta', 'next_cursor']`, `['links', 'next']`, `['total']`. */
export type MemberPath = readonly string[];

/**
 * How a list operation moves past its first page (spec/DECISIONS.md › D45), by the query parameter that says where a
 * page starts. In every kind, while nothing writes, the pages of a list partition it in the mock's order (newest
 * first, D8): no record twice, none left out.
 * - `page`: a page number; `first` is the number of the first page (0 or 1, from the schema's `minimum`, else its
 *   `default`, else 1); page `first + k` holds the records `k * size` to `(k + 1) * size - 1`.
 * - `offset`: the number of records to skip (`offset`, `skip`, `start`), from 0; where `first` is 1 (the parameter's
 *   `minimum` is 1, D621), the position of the page's first record counted from 1 (`offset=1` is the first record).
 * - `cursor`: an opaque token the previous answer gave (in a body member, a `Link` header or a next-page header);
 *   absent for the first page. A token the mock did not write is a 400; one whose record was deleted still works.
 */
export type PagingModel = { kind: 'page'; parameter: string; first: number } | { kind: 'offset'; parameter: string; first?: 1 | undefined } | { kind: 'cursor'; parameter: string };

/**
 * What a member of a list answer (or a response header) holds, as the mock fills it (spec/DECISIONS.md › D46):
 * - `total`: the number of records matching the filters, all pages (`total`, `count`, `totalCount`, `meta.total`,
 *   `totalElements`; header `X-Total-Count`); `pages`: the number of pages at this size (`totalPages`);
 * - `page`, `offset`, `size`: where this page starts (its number, its offset) and the page size used;
 * - `more`: whether another page follows (`has_more`, `hasMore`); `isFirst`, `isLast`: whether this page is the
 *   first, the last (Spring's boolean `first`, `last`); `returned`: the records on this page (`numberOfElements`);
 * - `next`: the value to send in the paging parameter for the next page (`nextCursor`, `next_page_token`,
 *   `meta.next_cursor`, an integer `nextPage`); `null` (or left out) on the last page;
 * - `nextLink`, `prevLink`, `firstLink`, `lastLink`, `selfLink`: a URL of that page (`next`, `links.next`, `_links.next.href`,
 *   `@odata.nextLink`; header `x-next`), a path reference: the request's path and query with the paging parameter
 *   set (`/v1/pets?page=2&size=10`); `null` (or left out) where there is no such page.
 */
export type PageFact = 'total' | 'pages' | 'page' | 'offset' | 'size' | 'returned' | 'more' | 'isFirst' | 'isLast' | 'next' | 'nextLink' | 'prevLink' | 'firstLink' | 'lastLink' | 'selfLink' | 'ids';

/** A member of a wrapper list answer and what it holds. */
export interface PageMember {
  path: MemberPath;
  holds: PageFact;
  /** A link whose schema asks for an absolute URL (`format: uri`, an absolute example): never a path alone (D864). */
  absolute?: boolean | undefined;
}

/**
 * A list operation as a whole (spec/DECISIONS.md › D45-D49): the main list of a collection (`GET /pets`) or a
 * view of it on a sub-path (`GET /pet/findByStatus`, `/pets/search`), which lists the same records, filtered.
 */
export interface ListModel {
  operation: OperationModel;
  /** `false` for the collection's own list, `true` for a sub-path view. */
  view: boolean;
  shape: ListShape;
  filters: FilterModel[];
  /** The page size parameter (D33), shared by every kind of paging. */
  limit: LimitModel | undefined;
  /** How pages after the first are asked for; `undefined`: only the first page (and `limit`) exists. */
  paging: PagingModel | undefined;
  /** Members of a wrapper answer the mock fills with facts of the page (`[]` for a bare array). */
  members: PageMember[];
  /**
   * Response headers the success response declares and the mock fills: `link` (RFC 8288: `rel="next"` when a next
   * page exists, `rel="prev"`, `rel="first"`, `rel="last"` for page-number and offset paging), a `total` header (`X-Total-Count`), a `nextLink`/`next` header (`x-next`).
   */
  headers: { name: string; holds: 'link' | 'total' | 'nextLink' | 'next' }[];
}

/** The page size parameter of a list operation, with its bounds (seed, Limits: 1, 100, default 20). */
export interface LimitModel {
  parameter: string;
  minimum: number;
  maximum: number | undefined;
  /** Records returned when the parameter is omitted (`maximum`, or all, when the spec gives no default). */
  default: number | undefined;
  /** Set when the parameter is required: a request always names a size, and no answer shows the default (D622). */
  required?: true | undefined;
  /**
   * The only page sizes the parameter takes, ascending, where its schema lists them (`enum: [2, 10, 20, 50]`, D903):
   * `minimum` and `maximum` are then the smallest and the largest; `undefined`: any integer within the bounds.
   */
  sizes?: readonly number[] | undefined;
}

/**
 * Where a record's identifier comes from (spec/DECISIONS.md › D50), read from the create body's schema:
 * - `server`: the create body cannot carry it (absent or `readOnly`): the server assigns it;
 * - `client`: the create body requires it (a natural key: `username`, `code`, `slug`): taken as sent;
 * - `either`: the create body may carry it (the Petstore's writable `Pet.id`): kept when sent, assigned when absent.
 * With `client` or `either`, a create naming an id already held is refused (409, or the documented 400).
 */
export type IdSource = 'server' | 'client' | 'either';

/**
 * The resource a sub-resource's records belong to (spec/DECISIONS.md › D53): `/owners/{ownerId}/pets` lists and
 * creates the pets of one owner, and answers 404 when that owner does not exist.
 */
export interface ParentModel {
  /** The parent resource's name (`owners`). */
  resource: string;
  /** The path parameter naming the parent record in this resource's paths (`ownerId`). */
  parameter: string;
  /**
   * The record property holding the parent's id, set by the server from the path: the property named like the
   * parameter (`ownerId`, `owner_id`) when the record schema has one, else a member the mock keeps beside the
   * record and never answers ({@link PARENT_LINK}).
   */
  property: string;
  /** Whether `property` is a property of the record schema (answered) or the mock's own link (never answered). */
  inSchema: boolean;
  /**
   * A singleton: at most one record per parent, read, replaced, updated and deleted at the collection path itself
   * (`GET /users/{userId}/profile` answers a record, not a list); its operations have `idIn: 'parent'`.
   */
  singleton: boolean;
  /**
   * A parent no resource holds, known by the examples of its read (D72: `GET /repos/{owner}/{repo}` answered from
   * its example): `parameters` are its path's parameters (`owner`, `repo`) and `values` every string or number its
   * read's success examples hold; a parent exists when each parameter's value is one of them. The link then holds
   * the parameters' values joined by `/` (`ada/compiler`). `resource` names no resource.
   */
  byExample?: { parameters: readonly string[]; values: readonly string[] };
}

/** The member a sub-resource's record keeps its parent's id in when its schema names no such property (never answered). */
export const PARENT_LINK = '\u0000parent';

/**
 * The key member of a resource whose records name no key of their own and are addressed by their URL alone
 * (spec/DECISIONS.md › D502): the item path's last segment, kept beside the record and never answered. Like
 * {@link PARENT_LINK}, its NUL keeps it apart from any member a description can name.
 */
export const URL_KEY = '\u0000key';

/**
 * How a list answer holds its records: a bare array (seed, Pets), or an array member of a wrapper object (its
 * schema with `allOf` merged). `itemsPath` leads to the array: `['data']`, `['items']`, or one level down
 * (HAL's `['_embedded', 'pets']`, `['data', 'items']`); `itemsProperty` is its first name.
 */
export type ListShape = { kind: 'array' } | { kind: 'object'; itemsProperty: string; itemsPath: MemberPath; schema: Schema };

/**
 * A resource: a collection path with list/create, an item path below it with read/replace/update/delete
 * (README › Resources). Its records have the schema of the item answer; the server assigns `idProperty`.
 */
export interface ResourceModel {
  name: string;
  /** Flat names (lower case, no `_`/`-`) a single-record envelope's member may go by: the resource's singular and plural, `x-resource`'s `envelope` (D73). */
  envelopeNames: string[];
  collectionPath: string;
  itemPath: string | undefined;
  /** The record as responses carry it (`writeOnly` forbidden). */
  recordSchema: Schema;
  /** The record's top-level properties, in the schema's order. */
  properties: Record<string, Schema>;
  required: string[];
  /** Whether records keep properties the schema does not name (only when `additionalProperties` says so). */
  keepsOtherProperties: boolean;
  idProperty: string;
  idType: 'integer' | 'string';
  idSchema: Schema;
  /** The item path's parameter naming the record, e.g. `petId`. */
  idParameter: string | undefined;
  /** Who chooses a new record's id: the server, the client (a natural key), or either (D50). */
  idSource: IdSource;
  /** The resource this one lives under (`/owners/{ownerId}/pets`), or `undefined` for a top-level one (D53). */
  parent: ParentModel | undefined;
  /**
   * What a successful create answers: `record` (its body is the record, with its id), or `none` (201/204 without
   * a body: the id is the one sent, or read from the `Location` header the mock sends, D52).
   */
  createAnswer: 'record' | 'none';
  operations: Partial<Record<Role, OperationModel>>;
  filters: FilterModel[];
  limit: LimitModel | undefined;
  listShape: ListShape | undefined;
  /** The collection's own list operation in full (paging, next-page pointers, totals); `undefined` without a list. */
  list: ListModel | undefined;
  /** Sub-path views of the collection (`GET /pet/findByStatus`): filtered lists of the same records. */
  views: ListModel[];
  /**
   * Field writes on the item path (spec/DECISIONS.md › D116): `POST /plant/{plantId}?name=…&status=…`, a `POST`
   * without a body whose query parameters each name a writable scalar member of the record (OpenAPI 3's form of
   * Swagger 2.0's `updatePetWithForm`). The fields sent are merged into the record; `op.resource` is this resource
   * and `op.role` stays `undefined`, as for a view.
   */
  fieldWrites: OperationModel[];
  validateRecord: Validator;
  /**
   * Set where the record's key is counted per parent beside a global id (`number` of an issue, per repository):
   * the member the stores key records by and the siblings sharing the numbers (spec/DECISIONS.md › D240).
   */
  numbering?: NumberingModel | undefined;
}

/**
 * Keys counted per parent (spec/DECISIONS.md › D240). A sub-resource whose path names its records by an integer
 * member other than the record's own `id` (`/repos/{owner}/{repo}/issues/{issue_number}` → `number`, D141), and
 * whose records also carry that `id` as the server's, is numbered under its parent: the first record of each
 * parent is 1, the next one more than the largest held under that parent; the stores key such records by the
 * global `id` (mock/store/record-store.ts storeView), and the path's number is looked up under the path's parent.
 *
 * Two such siblings (one parent, one key name) share one number space where each record names the other: a
 * member of one is the other's singular or starts with it and `_` (`pull_request` of an issue names `pulls`,
 * `issue_url` of a pull request names `issues`). A milestone, named by an issue's `milestone` but naming no issue
 * in turn (`open_issues` counts them), keeps its own numbers; so does a stack, whose `pull_requests` (an array)
 * holds pull requests rather than being one.
 */
export interface NumberingModel {
  /** The member counted per parent (`number`): the model's key, which the path names. */
  key: string;
  /** The record's member the stores key it by: its global id (`id`), which the server assigns. */
  storeKey: string;
  /** Names of the sibling resources whose records share this resource's numbers under one parent. */
  shared: string[];
  /**
   * A sharing sibling whose records each of this resource's records also is (spec/DECISIONS.md › D244): a pull
   * request is an issue, marked there by the object member `pull_request`. Named where the sibling's record
   * has an object member (not an array) named after this resource.
   */
  alsoIn?: { resource: string; member: string } | undefined;
  /** The converse of {@link alsoIn}: this resource's records whose `member` is set are also records of `resource`. */
  marks?: { resource: string; member: string } | undefined;
}

/** A tag of the document (OpenAPI 3.2 Tag Object): `parent` nests it under another tag, `kind` says what it is for. */
export interface TagModel {
  name: string;
  summary?: string | undefined;
  parent?: string | undefined;
  kind?: string | undefined;
}

/** The whole interface: what both the mock and the conformance suite stand on. */
export interface ApiModel {
  title: string;
  version: string;
  /** Path prefix of every operation, from the local server entry of `servers` (`/v1` for the seed). */
  basePath: string;
  /** Every server URL of the spec, variables filled with their defaults, and its description. */
  servers: { url: string; description: string }[];
  /**
   * Whether a path requested without {@link basePath} is the same call (`/info` for `/v1.41/info`), because the
   * description's text says so (spec/DECISIONS.md › D600). Unset: only paths under the base path are served.
   */
  unprefixed?: boolean | undefined;
  operations: OperationModel[];
  resources: ResourceModel[];
  /** What the start-up log should say: operations no resource holds, statuses a behaviour needs but the spec lacks. */
  notes: string[];
  /** What the start-up log says at debug only: the details behind a counted note (each example left out, D132). */
  details?: string[] | undefined;
  /** Schemas no validator could be compiled from, found as values are judged (D134): the suite reports a check that met one as not run. */
  schemaFailures?: SchemaFailures | undefined;
  /** The root's `tags`: name, `summary`, and OpenAPI 3.2's `parent` (the tag it nests under) and `kind` (`nav`, `badge`, `audience`…). */
  tags?: TagModel[] | undefined;
  /** Absolute path of the document the model was read from (the shipped spec is {@link SPEC_PATH}); unset when built otherwise. */
  source?: string | undefined;
}

/**
 * What an error says, whatever shape carries it: a stable machine-readable `code` (one row of the mock's error
 * table), a human `message`, and the HTTP `status` (seed, Errors: "The `status` field equals the HTTP status code").
 */
export interface ErrorFacts {
  code: string;
  message: string;
  status: number;
}

/**
 * Error bodies of one operation, in the shape its spec documents for each status (README › Error bodies):
 * `body(facts)` returns the JSON value and the media type to send it as; `write(facts)` the same ready for the
 * wire (JSON text, XML, plain text: the message).
 */
export interface ErrorShape {
  body(facts: ErrorFacts): { value: Record<string, unknown>; mediaType: string };
  /** The body as sent: its text in the documented media type (model/media.ts), and that media type. */
  write(facts: ErrorFacts): { text: string; mediaType: string };
  /** Whether the spec documents `status` for this operation (exactly, by its `4XX` range, or by `default`). */
  documents(status: number): boolean;
  /**
   * The status a refusal of the request itself (an invalid body, query or form: 400 in the error table) is sent
   * with: 422 where the operation lists 422 and neither 400 nor `4XX` (a `default` does not count), else 400
   * (spec/DECISIONS.md › D74).
   */
  invalidRequestStatus: 400 | 422;
  /**
   * The status a body that breaks its schema (or a required body left out) is refused with: 422 where the operation
   * documents 422 as the validation failure (its description speaks of validation) and its 400, if any, claims no refused input (`Invalid input`);
   * else {@link invalidRequestStatus} (spec/DECISIONS.md › D143). A body that is no JSON at all keeps that status.
   */
  invalidBodyStatus?: 400 | 422;
}
