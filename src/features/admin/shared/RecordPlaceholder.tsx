import { Text } from '@mantine/core';
import { InlineLoading } from '../../../ui/LoadingScreen';
import { ButtonLink } from '../../../ui/links';
import { AdminPage } from './AdminPage';

/**
 * What a view or edit screen shows while its record is not there: the loading spinner, or, once
 * loading has ended without it, the admin frame with a way back to its list, saying the record
 * does not exist when the server said so. Any other failure is only logged (spec §8): offline,
 * "does not exist" would be a false alarm.
 */
export function RecordPlaceholder(props: { loading: boolean; notFound: boolean; loadingLabel: string; missing: string; title: string; list: '/admin/users' | '/admin/api-services' }) {
  if (props.loading) return <InlineLoading label={props.loadingLabel} />;
  return (
    <AdminPage
      title={props.title}
      actions={
        <ButtonLink to={props.list} variant="default">
          Back
        </ButtonLink>
      }
    >
      {props.notFound && <Text c="dimmed">{props.missing}</Text>}
    </AdminPage>
  );
}
