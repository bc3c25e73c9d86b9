/** The one client the peer knows. */
export const PEER_CLIENT = { client_id: 'bench-peer', client_secret: 'bench-peer-secret-0123456789abcdef', redirect_uri: 'http://127.0.0.1:9/callback' };
