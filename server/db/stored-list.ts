/** A list column as stored, JSON text: a user's groups, a service's redirect URIs, scopes, grant types and groups. */
export const storedList = (json: string): string[] => JSON.parse(json) as string[];
