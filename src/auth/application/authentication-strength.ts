/**
 * Is the authentication behind a token multi-factor? Read from the standard claims, never from a
 * home-made one: `amr` (RFC 8176 §2 method values) or `acr` (OpenID Connect Core §2).
 *
 * - `amr` contains `mfa`; or its methods cover two distinct factor kinds (NIST SP 800-63B §4.2:
 *   AAL2 = two distinct factors): something known (`pwd`, `pin`, `kba`), something held (`hwk`,
 *   `swk`, `sc`, `otp`, `sms`, `tel`), something one is (`fpt`, `face`, `iris`, `retina`, `vbm`).
 *   So `["pwd","otp"]`, `["hwk","pin"]`, `["swk","fpt"]` pass; `["pwd"]`, `["otp"]`, `["hwk"]`,
 *   `["pwd","kba"]` do not.
 * - or `acr` is one of ACCEPTED_ACR_VALUES: `phr`/`phrh` (OpenID EAP ACR Values 1.0 §2:
 *   phishing-resistant, both multi-factor) or the PAPE multi-factor policy URIs.
 */
const KNOWLEDGE = new Set(['pwd', 'pin', 'kba']);
const POSSESSION = new Set(['hwk', 'swk', 'sc', 'otp', 'sms', 'tel']);
const INHERENCE = new Set(['fpt', 'face', 'iris', 'retina', 'vbm']);

const ACCEPTED_ACR_VALUES: readonly string[] = [
  'phr',
  'phrh',
  'http://schemas.openid.net/pape/policies/2007/06/multi-factor',
  'http://schemas.openid.net/pape/policies/2007/06/multi-factor-physical',
];

export function isMultiFactor(claims: { amr?: unknown; acr?: unknown }): boolean {
  if (typeof claims.acr === 'string' && ACCEPTED_ACR_VALUES.includes(claims.acr)) return true;
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [];
  if (amr.includes('mfa')) return true;
  const kinds = [KNOWLEDGE, POSSESSION, INHERENCE].filter((kind) => amr.some((method) => kind.has(method)));
  return kinds.length >= 2;
}
