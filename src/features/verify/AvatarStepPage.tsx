import { Button, Center, FileButton, SimpleGrid, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { AVATAR_FIELD, verificationStatusSchema } from '../../../contract/verification';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { AccountAvatar } from '../../ui/AccountAvatar';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { CameraCapture } from './CameraCapture';
import { fitPicture } from './fit-picture';
import { VerifyFrame } from './VerifyFrame';

export const NOT_AN_IMAGE = 'Please select an image file.';

/** Step 2: a picture from a file or the camera; Next uploads it. */
export function AvatarStepPage() {
  const session = useSession();
  const { profile } = useSnapshot(session.state);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [camera, setCamera] = useState(false);
  const uploading = useAsyncAction('Uploading the picture');

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (picked: File | null) => {
    uploading.setOutcome(null);
    if (!picked) return;
    const image = picked.type.startsWith('image/');
    setFile(image ? picked : null);
    if (!image) uploading.setOutcome({ kind: 'error', message: NOT_AN_IMAGE });
  };

  const upload = () =>
    uploading.run(async () => {
      if (!file) return;
      const picture = await fitPicture(file);
      const form = new FormData();
      // Named as what it is (spec §7's avatar.png is the camera's capture); the server reads the bytes, never the name.
      form.append(AVATAR_FIELD, picture, picture.name);
      await callApi(session.connection, 'PUT', '/api/v1/avatar', verificationStatusSchema, form);
      await session.authenticate();
    });

  return (
    <VerifyFrame step="avatar" title="Add a profile picture" subtitle="Services you sign in to show this picture, so people know it is you.">
      <Stack gap="md">
        <OutcomeAlert outcome={uploading.outcome} />
        <Center>
          <AccountAvatar src={preview} name={profile?.full_name ?? ''} size={128} radius={128} />
        </Center>
        {/* Side by side where both labels fit whole; on a phone one above the other. */}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <FileButton onChange={choose} accept="image/*">
            {(props) => (
              <Button variant="default" {...props}>
                Choose a picture
              </Button>
            )}
          </FileButton>
          <Button variant="default" onClick={() => setCamera(true)}>
            Use the camera
          </Button>
        </SimpleGrid>
        <Button onClick={() => void upload()} disabled={!file} loading={uploading.busy} size="md">
          Next
        </Button>
      </Stack>
      <CameraCapture
        opened={camera}
        onClose={() => setCamera(false)}
        onCapture={(captured) => {
          setCamera(false);
          choose(captured);
        }}
      />
    </VerifyFrame>
  );
}
