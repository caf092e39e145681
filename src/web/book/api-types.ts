/**
 * The widget's view of the REST API, from the OpenAPI document: admin/src/api/schema.d.ts is generated from
 * /openapi.json by `npm run admin:api` (and checked by `--check` in CI), so a route whose answer changes breaks the
 * widget's typecheck too. Type-only: nothing of it reaches book.js.
 */
import type { paths } from '../../../admin/src/api/schema.js';

type Method = 'get' | 'post' | 'put';
type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** A route of the document, by path and method. */
export type Route<P extends keyof paths, M extends Method> = paths[P][M];

/** The JSON body of a route's success answer (200, else 201) as the document describes it. */
export type Answer<P extends keyof paths, M extends Method> =
  Route<P, M> extends { responses: infer Rs }
    ? Rs extends { 200: infer R }
      ? Json<R>
      : Rs extends { 201: infer R }
        ? Json<R>
        : never
    : never;

/** The `data` of a rova-rental envelope (the document marks it optional: error answers have none). */
export type Data<A> = A extends { data?: infer D } ? NonNullable<D> : never;

/** The JSON request body of a route. */
export type Body<P extends keyof paths, M extends Method> =
  Route<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

/** The query parameters of a route. */
export type Query<P extends keyof paths, M extends Method> =
  Route<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type V2<P extends string> = `/wp-json/rova-rental/v2${P}` & keyof paths;
type V1<P extends string> = `/wp-json/rova-rental/v1${P}` & keyof paths;

export type SearchAnswer = Data<Answer<V2<'/vehicles/search'>, 'get'>>;
export type SearchItem = SearchAnswer['items'][number];
export type SearchQuery = Query<V2<'/vehicles/search'>, 'get'>;
export type CheckBody = Body<V2<'/booking/check'>, 'post'>;
export type CreateBody = Body<V2<'/booking/create'>, 'post'>;
export type PaymentConfigAnswer = Data<Answer<V2<'/payments/config'>, 'get'>>;
export type MyBookingAnswer = Data<Answer<V2<'/my/bookings/{id}'>, 'get'>>;
export type CancelQuoteAnswer = MyBookingAnswer['cancellation'];
export type BalanceAnswer = MyBookingAnswer['balance'];
export type OrderAnswer = MyBookingAnswer['order'];
export type PayDueBody = NonNullable<Body<V2<'/my/bookings/{id}/pay-due'>, 'post'>>;
export type PayDueAnswer = Data<Answer<V2<'/my/bookings/{id}/pay-due'>, 'post'>>;
export type ChangeBody = Body<V2<'/my/bookings/{id}/change'>, 'post'>;
export type ChangeAnswer = Data<Answer<V2<'/my/bookings/{id}/change'>, 'post'>>;
export type ThreadSummaryAnswer = NonNullable<Data<Answer<V1<'/my/messages'>, 'get'>>['items']>[number];
export type ThreadAnswer = Data<Answer<V1<'/my/messages/{id}'>, 'get'>>;
export type NewThreadBody = Body<V1<'/my/messages'>, 'post'>;
export type ProfileAnswer = Answer<'/wp-json/rova/v1/profile', 'get'>['user'];
export type ProfileBody = Body<'/wp-json/rova/v1/profile', 'put'>;
export type PasswordBody = Body<'/wp-json/rova/v1/auth/password', 'put'>;
export type TokenAnswer = Answer<'/wp-json/rova/v1/auth/token', 'post'>;
export type RegisterBody = Body<'/wp-json/rova/v1/auth/register', 'post'>;
