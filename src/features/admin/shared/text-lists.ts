import type { FieldMetadata } from '@conform-to/react';

// Lists an administrator types as text (redirect URIs, scopes, groups), split for the contract's
// list fields to check item by item.

export const lines = (text: unknown) => (typeof text === 'string' ? text.split('\n').map((line) => line.trim()).filter(Boolean) : []);
export const words = (text: unknown) => (typeof text === 'string' ? text.split(/\s+/).filter(Boolean) : []);
export const commaList = (text: unknown) => (typeof text === 'string' ? text.split(',').map((item) => item.trim()).filter(Boolean) : []);

/** The first error of such a field or of any of its items (redirect_uris[2]). */
export const firstError = (field: FieldMetadata<unknown>) => Object.values(field.allErrors).flat()[0];
