import type { FieldMetadata } from '@conform-to/react';
import { z } from 'zod';

// What the admin forms send, made ready for the contract's fields: lists an administrator types
// as text (redirect URIs, scopes, groups), split to be checked item by item, and switches.

export const lines = (text: unknown) => (typeof text === 'string' ? text.split('\n').map((line) => line.trim()).filter(Boolean) : []);
export const words = (text: unknown) => (typeof text === 'string' ? text.split(/\s+/).filter(Boolean) : []);
export const commaList = (text: unknown) => (typeof text === 'string' ? text.split(',').map((item) => item.trim()).filter(Boolean) : []);

/** The first error of such a field or of any of its items (redirect_uris[2]). */
export const firstError = (field: FieldMetadata<unknown>) => Object.values(field.allErrors).flat()[0];

/**
 * For what is typed as the machine reads it (addresses, scopes, groups, usernames): a phone's
 * keyboard capitalised "Https://…", which was stored as typed and never matched a service's request.
 */
export const VERBATIM = { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false } as const;

/** A switch: sent as 'on' when on, left out when off. */
export const checkbox = z.preprocess((value) => value === 'on', z.boolean());
