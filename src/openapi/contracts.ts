/**
 * The API document's parts, in the order the document lists them: each feature's contract (its
 * operations and schemas, declared beside its routes) is assembled here and nowhere else.
 */
import type { ApiContract, OperationSpec } from '../http/operation.ts';
import { COUNTER_REST_CONTRACT } from '../counter/rest.ts';
import { COUNTER_STREAM_CONTRACT } from '../counter/stream.ts';
import { SERVER_FUNCTION_CONTRACT } from '../counter/pages/server-functions.ts';
import { HEALTH_CONTRACT } from '../http/health.ts';
import { MAINTENANCE_CONTRACT } from '../maintenance/routes.ts';
import { OPENAPI_CONTRACT } from './paths.ts';
import { AUTH_REST_CONTRACT } from '../auth/rest/contract.ts';
import { OAUTH_CONTRACT } from '../auth/oauth/contract.ts';
import { PASSKEY_CONTRACT } from '../auth/passkeys/contract.ts';
import { ADMIN_CONTRACT } from '../auth/admin/contract.ts';
import { SIGN_IN_METHODS_CONTRACT } from '../auth/rest/sign-in-methods-contract.ts';
import { EMAIL_CHANGE_CONTRACT } from '../auth/rest/email-change-contract.ts';

export const API_CONTRACTS: readonly ApiContract[] = [
  COUNTER_REST_CONTRACT,
  COUNTER_STREAM_CONTRACT,
  SERVER_FUNCTION_CONTRACT,
  AUTH_REST_CONTRACT,
  EMAIL_CHANGE_CONTRACT,
  OAUTH_CONTRACT,
  PASSKEY_CONTRACT,
  ADMIN_CONTRACT,
  SIGN_IN_METHODS_CONTRACT,
  HEALTH_CONTRACT,
  OPENAPI_CONTRACT,
  MAINTENANCE_CONTRACT,
];

/** Every documented operation, in the document's order. */
export const OPERATIONS: readonly OperationSpec[] = API_CONTRACTS.flatMap((contract) => contract.operations);
