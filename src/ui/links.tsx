import { Anchor, type AnchorProps, Button, type ButtonProps } from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

// Mantine's look with the router's typed `to`, `params` and `search`.

type AnchorElementProps = Omit<AnchorProps, 'href'> & AnchorHTMLAttributes<HTMLAnchorElement>;
const AnchorElement = forwardRef<HTMLAnchorElement, AnchorElementProps>((props, ref) => <Anchor ref={ref} {...props} />);
const CreatedAnchorLink = createLink(AnchorElement);
export const AnchorLink: LinkComponent<typeof AnchorElement> = (props) => <CreatedAnchorLink {...props} />;

type ButtonElementProps = Omit<ButtonProps, 'href'> & AnchorHTMLAttributes<HTMLAnchorElement>;
const ButtonElement = forwardRef<HTMLAnchorElement, ButtonElementProps>((props, ref) => <Button component="a" ref={ref} {...props} />);
const CreatedButtonLink = createLink(ButtonElement);
export const ButtonLink: LinkComponent<typeof ButtonElement> = (props) => <CreatedButtonLink {...props} />;
