/**
 * The maintenance request the host makes to the component: `POST /api/internal/maintenance`
 * carrying `x-app-maintenance: <token>`, the token being the guest's APP_MAINTENANCE_TOKEN, random
 * per host start. The host drops any copy of the header a client sends (host/exchange.ts), and a
 * request without the right token finds no such route: only the host reaches it.
 */
export const MAINTENANCE_PATH = '/api/internal/maintenance';
export const MAINTENANCE_HEADER = 'x-app-maintenance';
export const MAINTENANCE_TOKEN_VARIABLE = 'APP_MAINTENANCE_TOKEN';
