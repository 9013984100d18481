import { Group, Modal, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { Role, User, UsersList } from '../../../../shared/ipc/contract.js';
import { ROLES } from '../../../../shared/ipc/roles.js';
import { roleText } from '../../ui/glossary.js';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { bindText } from '../../ui/fields.js';
import { useAddUser, useUpdateUser } from './queries.js';

/** The roles as the Users screen offers them: what each may do, in a line. */
export const ROLE_CHOICES: { value: Role; label: string }[] = [
  { value: 'viewer', label: 'Viewer — every screen; no exports, no actions' },
  { value: 'compliance', label: 'Compliance — as viewer, plus exports and the audit check' },
  { value: 'support', label: 'Support — as viewer, plus revoking, updating and creating consents' },
  { value: 'admin', label: 'Admin — everything, plus users, profiles and settings' },
];
/** Each role in words (the glossary's). */
export const ROLE_NAME = Object.fromEntries(ROLES.map((r) => [r, roleText(r)])) as Record<Role, string>;

type Rules = NonNullable<UsersList['rules']>;

/** The server's rule for a new password, shown under the password field. */
export function passwordRule(rules: Rules | null): string {
  return rules ? `At least ${rules.passwordMin} characters, not starting or ending with a space.` : '';
}

/** The server's rules in full: a new password's, and the lock after wrong ones. */
export function rulesText(rules: Rules | null): string {
  if (!rules) return '';
  const first = rules.lockFirstMinutes ?? rules.lockMinutes;
  return `Passwords: ${passwordRule(rules).replace(/^A/, 'a')} After ${rules.lockAfter} wrong passwords in a row from one address, sign-in from there is refused for ${first === rules.lockMinutes ? `${first} minutes` : `${first} minute${first === 1 ? '' : 's'}, then twice as long each time, up to ${rules.lockMinutes} minutes`}; other addresses are not locked out.`;
}

/** Why a new password (and its confirmation) would be refused, checked before it is sent. */
function passwordErrors(password: string, confirm: string, rules: Rules | null): { password?: string; confirm?: string } {
  const min = rules?.passwordMin ?? 1;
  const length = [...password].length;
  if (length < min) return { password: `At least ${min} characters (this one has ${length}).` };
  if (/^\s|\s$/.test(password)) return { password: 'It may not start or end with a space (a pasted one often does by mistake).' };
  if (password !== confirm) return { confirm: 'The two passwords differ.' };
  return {};
}

/** A new password twice, with the rules; `tried` shows what is wrong once the form was sent. */
function PasswordFields({
  password,
  setPassword,
  confirm,
  setConfirm,
  rules,
  errors,
  label = 'Password',
  autoFocus = false,
}: {
  password: string;
  setPassword(v: string): void;
  confirm: string;
  setConfirm(v: string): void;
  rules: Rules | null;
  errors: { password?: string; confirm?: string } | null;
  label?: string;
  autoFocus?: boolean;
}) {
  return (
    <>
      <PasswordInput
        label={label}
        required
        description={passwordRule(rules)}
        autoComplete="new-password"
        error={errors?.password}
        {...bindText(password, setPassword)}
        {...(autoFocus ? { 'data-autofocus': true } : {})}
      />
      <PasswordInput
        label={`Confirm ${label.toLowerCase()}`}
        required
        autoComplete="new-password"
        error={errors?.confirm}
        {...bindText(confirm, setConfirm)}
      />
    </>
  );
}

/** Adding a person: their user name, the name others see, the role, and how they sign in. */
export function AddUserDialog({ opened, onClose, rules }: { opened: boolean; onClose(): void; rules: Rules | null }) {
  const [name, setName] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [method, setMethod] = useState<'password' | 'oidc'>('password');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tried, setTried] = useState(false);
  const clear = () => {
    setName('');
    setDisplayName('');
    setRole('viewer');
    setMethod('password');
    setPassword('');
    setConfirm('');
    setTried(false);
  };
  const add = useAddUser(() => {
    clear();
    onClose();
  });
  const close = () => {
    clear();
    add.reset();
    onClose();
  };
  const nameError = name.trim() ? undefined : 'A user name is needed: the name they sign in with.';
  const displayError = displayName.trim().length >= 2 ? undefined : 'A display name has 2 to 80 characters.';
  const pwErrors = method === 'password' ? passwordErrors(password, confirm, rules) : {};
  const valid = !nameError && !displayError && !pwErrors.password && !pwErrors.confirm;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!valid) return;
    add.mutate({ name: name.trim(), displayName: displayName.trim(), role, password: method === 'password' ? password : null });
  };
  return (
    <Modal opened={opened} onClose={close} title="Add a user" size="lg">
      <form onSubmit={submit} autoComplete="off" noValidate>
        <Stack gap="sm">
          <TextInput
            label="User name"
            description="What they sign in with: lower-case letters, digits and . _ @ + -"
            required
            maxLength={100}
            error={tried ? nameError : undefined}
            data-autofocus
            {...bindText(name, setName)}
          />
          <TextInput
            label="Display name"
            description="How the console and the audit log name them."
            required
            maxLength={80}
            error={tried ? displayError : undefined}
            {...bindText(displayName, setDisplayName)}
          />
          <ChoiceSelect label="Role" data={ROLE_CHOICES} value={role} onChange={setRole} />
          <Radio.Group
            label="Signs in with"
            value={method}
            onChange={(v) => setMethod(v as 'password' | 'oidc')}
            description={
              method === 'oidc'
                ? 'The organisation’s identity provider, with the user name above; this server keeps no password for them.'
                : undefined
            }
          >
            <Group gap="lg" mt={6}>
              <Radio value="password" label="A password kept by this server" />
              <Radio value="oidc" label="Single sign-on" />
            </Group>
          </Radio.Group>
          {method === 'password' ? (
            <PasswordFields
              password={password}
              setPassword={setPassword}
              confirm={confirm}
              setConfirm={setConfirm}
              rules={rules}
              errors={tried ? pwErrors : null}
            />
          ) : null}
          <DialogFooter mutation={add} errorTitle="The user was not added" onCancel={close} action="Add user" />
        </Stack>
      </form>
    </Modal>
  );
}

/** A new password for someone who forgot theirs: it ends their sessions and lifts a lock. */
export function ResetPasswordDialog({ user, onClose, rules }: { user: User | null; onClose(): void; rules: Rules | null }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tried, setTried] = useState(false);
  const clear = () => {
    setPassword('');
    setConfirm('');
    setTried(false);
  };
  const update = useUpdateUser(() => {
    clear();
    onClose();
  });
  const close = () => {
    clear();
    update.reset();
    onClose();
  };
  const errors = passwordErrors(password, confirm, rules);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!user || errors.password || errors.confirm) return;
    update.mutate({
      change: { id: user.id, password },
      title: 'Password reset',
      said: (u) => `${u.displayName} signs in with the new password; their sessions ended.`,
    });
  };
  return (
    <Modal opened={user !== null} onClose={close} title={user ? `Reset the password of ${user.displayName}` : ''} size="lg">
      <form onSubmit={submit} autoComplete="off" noValidate>
        <Stack gap="sm">
          <Text size="sm">
            Their sessions end at once (they are signed out everywhere) and a lock after wrong passwords is lifted. Tell them the new
            password yourself, over a channel you trust.
          </Text>
          <PasswordFields
            label="New password"
            password={password}
            setPassword={setPassword}
            confirm={confirm}
            setConfirm={setConfirm}
            rules={rules}
            errors={tried ? errors : null}
            autoFocus
          />
          <DialogFooter mutation={update} errorTitle="The password was not reset" onCancel={close} action="Reset password" />
        </Stack>
      </form>
    </Modal>
  );
}

/** A role change, confirmed: it ends the person's sessions, so they sign in again with the new role. */
export function RoleDialog({ change, me, onClose }: { change: { user: User; role: Role } | null; me: string | null; onClose(): void }) {
  const update = useUpdateUser(onClose);
  const close = () => {
    update.reset();
    onClose();
  };
  return (
    <Modal opened={change !== null} onClose={close} title="Change the role" size="md">
      {change ? (
        <Stack gap="sm">
          <Text size="sm">
            <strong>{change.user.displayName}</strong> becomes <strong>{ROLE_NAME[change.role].toLowerCase()}</strong> (was{' '}
            {change.user.role}). Their sessions end: they sign in again with the new role.
            {change.user.id === me ? ' That is you: this console signs you out.' : ''}
          </Text>
          <DialogFooter
            mutation={update}
            errorTitle="The role was not changed"
            onCancel={close}
            action="Change role"
            onAction={() =>
              update.mutate({
                change: { id: change.user.id, role: change.role },
                title: 'Role changed',
                said: (u) => `${u.displayName} is now ${ROLE_NAME[u.role].toLowerCase()}.`,
              })
            }
          />
        </Stack>
      ) : null}
    </Modal>
  );
}

/** Disabling someone, confirmed: they cannot sign in, and their sessions end now. */
export function DisableDialog({ user, me, onClose }: { user: User | null; me: string | null; onClose(): void }) {
  const update = useUpdateUser(onClose);
  const close = () => {
    update.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={user !== null}
      onClose={close}
      title={user ? `Disable ${user.displayName}?` : ''}
      size="md"
      action="Disable"
      mutation={update}
      onConfirm={() =>
        user &&
        update.mutate({
          change: { id: user.id, disabled: true },
          title: 'User disabled',
          said: (u) => `${u.displayName} can no longer sign in; their sessions ended.`,
        })
      }
    >
      They can no longer sign in, and the consoles they have open are signed out now. Their audit entries stay; Enable brings them back.
      {user?.id === me ? ' That is you: this console signs you out, and another admin has to enable you again.' : ''}
    </ConfirmDialog>
  );
}
