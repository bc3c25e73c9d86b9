import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

export const CAMERA_NOT_SUPPORTED = 'Camera not supported on this device/browser.';
export const CAMERA_UNAVAILABLE = 'Unable to access camera.';

/** A camera preview in a dialog; Capture hands back a PNG named avatar.png (spec §9). */
export function CameraCapture({ opened, onClose, onCapture }: { opened: boolean; onClose: () => void; onCapture: (file: File) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!opened) return;
    let stream: MediaStream | undefined;
    let cancelled = false;
    setFailure(null);
    setReady(false);
    if (!navigator.mediaDevices?.getUserMedia) {
      setFailure(CAMERA_NOT_SUPPORTED);
      return;
    }
    navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false }).then(
      (media) => {
        stream = media;
        if (cancelled || !video.current) return media.getTracks().forEach((track) => track.stop());
        video.current.srcObject = media;
        void video.current.play().then(() => setReady(true));
      },
      (error: unknown) => {
        console.error('Camera access failed', error);
        setFailure(CAMERA_UNAVAILABLE);
      },
    );
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [opened]);

  const capture = () => {
    const source = video.current;
    if (!source) return;
    const canvas = document.createElement('canvas');
    canvas.width = source.videoWidth;
    canvas.height = source.videoHeight;
    canvas.getContext('2d')!.drawImage(source, 0, 0);
    canvas.toBlob((blob) => {
      if (blob) onCapture(new File([blob], 'avatar.png', { type: 'image/png' }));
    }, 'image/png');
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Take a photo" centered>
      <Stack>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : (
          <video ref={video} muted playsInline aria-label="Camera preview" style={{ width: '100%', borderRadius: 8, background: '#000' }} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={capture} disabled={!ready || failure !== null}>
            Capture
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
