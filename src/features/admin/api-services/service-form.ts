import { z } from 'zod';
import { apiServiceInputSchema, type ApiService } from '../../../../contract/services';
import { checkbox, commaList, lines, words } from '../shared/form-fields';

const fields = apiServiceInputSchema.shape;
/** An optional address: left empty, there is none. */
const optionalText = (text: unknown) => (typeof text === 'string' && text.trim() !== '' ? text.trim() : null);

/**
 * The service form (spec §5): redirect URIs one per line, scopes and grant types separated by
 * spaces, allowed groups by commas, each then checked by the contract's own rules.
 */
export const serviceFormSchema = z.object({
  name: fields.name,
  description: fields.description,
  launch_url: z.preprocess(optionalText, fields.launch_url),
  icon_url: z.preprocess(optionalText, fields.icon_url),
  redirect_uris: z.preprocess(lines, fields.redirect_uris),
  scopes: z.preprocess(words, fields.scopes),
  grant_types: z.preprocess(words, fields.grant_types),
  allowed_groups: z.preprocess(commaList, fields.allowed_groups),
  require_two_step: checkbox,
  public_client: checkbox,
  is_active: checkbox,
  /** Editing: the service's edit_version the form was filled from (a hidden field). */
  edit_version: z.string().optional(),
});

/** The form's text values for an existing service (edit screen). */
export const formValuesOf = (service: ApiService) => ({
  name: service.name,
  description: service.description,
  launch_url: service.launch_url ?? '',
  icon_url: service.icon_url ?? '',
  redirect_uris: service.redirect_uris.join('\n'),
  scopes: service.scopes.join(' '),
  grant_types: service.grant_types.join(' '),
  allowed_groups: service.allowed_groups.join(', '),
  require_two_step: service.require_two_step ? 'on' : '',
  public_client: service.public_client ? 'on' : '',
  edit_version: service.edit_version,
});

export const NEW_SERVICE_DEFAULTS = { scopes: 'openid', grant_types: '', is_active: 'on' };
