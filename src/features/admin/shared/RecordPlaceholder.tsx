import { Text } from '@mantine/core';
import { InlineLoading } from '../../../ui/LoadingScreen';
import { ButtonLink } from '../../../ui/links';
import { AdminPage } from './AdminPage';

/**
 * What a view or edit screen shows while its record is not there: the loading spinner, or, once
 * loading has ended without it, that it does not exist, in the admin frame with a way back to
 * its list.
 */
export function RecordPlaceholder(props: { loading: boolean; loadingLabel: string; missing: string; title: string; list: '/admin/users' | '/admin/api-services' }) {
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
      <Text c="dimmed">{props.missing}</Text>
    </AdminPage>
  );
}
