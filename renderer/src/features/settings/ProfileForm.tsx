import { Checkbox, Modal, PasswordInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ProfileInput, ProfileSummary } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { bindChecked, bindText, MONOSPACE_INPUT } from '../../ui/fields.js';

/**
 * Adding or editing a connection profile. The client secret (or the private key) is typed here and
 * sent once to main, which keeps it in its encrypted vault: it is never sent back, so an edit shows
 * "stored" and an empty field keeps it.
 */
const DEFAULT_SCOPES = 'consents:read consents:write use-cases:read data-holders:read tokens:write';
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 63);

export function ProfileForm({ editing, opened, onClose }: { editing: ProfileSummary | null; opened: boolean; onClose(): void }) {
  const client = useClient();
  const queries = useQueryClient();
  const [name, setName] = useState(editing?.name ?? '');
  const [id, setId] = useState(editing?.id ?? '');
  const [environment, setEnvironment] = useState<'nonprod' | 'prod'>(editing?.environment === 'prod' ? 'prod' : 'nonprod');
  const [consentApiBaseUrl, setConsentUrl] = useState(editing?.consentApiBaseUrl ?? '');
  const [dataApiBaseUrl, setDataUrl] = useState(editing?.dataApiBaseUrl ?? '');
  const [tokenUrl, setTokenUrl] = useState(editing?.tokenUrl ?? '');
  const [clientId, setClientId] = useState(editing?.clientId ?? '');
  const [authMethod, setAuthMethod] = useState<ProfileInput['authMethod']>(
    (editing?.authMethod as ProfileInput['authMethod'] | undefined) ?? 'client_secret_basic',
  );
  const [keyId, setKeyId] = useState(editing?.keyId ?? '');
  const [algorithm, setAlgorithm] = useState<'PS256' | 'ES256' | 'RS256'>((editing?.algorithm as 'PS256' | undefined) ?? 'PS256');
  const [scopes, setScopes] = useState(editing?.scopes?.join(' ') ?? DEFAULT_SCOPES);
  const [softwareProductId, setSoftwareProductId] = useState(editing?.softwareProductId ?? '');
  const [redirectUri, setRedirectUri] = useState(editing?.redirectUri ?? '');
  const [secret, setSecret] = useState('');
  const [makeDefault, setMakeDefault] = useState(false);
  const usesKey = authMethod === 'private_key_jwt';

  const save = useMutation({
    mutationFn: () =>
      client.profilesSave({
        id: id || slug(name),
        name: name.trim(),
        environment,
        consentApiBaseUrl: consentApiBaseUrl.trim(),
        ...(dataApiBaseUrl.trim() ? { dataApiBaseUrl: dataApiBaseUrl.trim() } : {}),
        tokenUrl: tokenUrl.trim(),
        clientId: clientId.trim(),
        authMethod,
        ...(usesKey ? { keyId: keyId.trim(), algorithm } : {}),
        scopes: scopes.split(/\s+/).filter(Boolean),
        ...(softwareProductId.trim() ? { softwareProductId: softwareProductId.trim() } : {}),
        ...(redirectUri.trim() ? { redirectUri: redirectUri.trim() } : {}),
        ...(secret ? { secret } : {}),
        ...(makeDefault ? { makeDefault } : {}),
      }),
    onSuccess: (profiles) => {
      queries.setQueryData(['profiles:list'], profiles);
      setSecret('');
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? `Edit profile “${editing.name}”` : 'Add a connection profile'} size="xl">
      <form onSubmit={submit} autoComplete="off">
        <Stack gap="sm">
          <SimpleGrid cols={2} spacing="sm">
            <TextInput label="Name" required {...bindText(name, setName)} maxLength={80} data-autofocus />
            <TextInput
              label="Id"
              description={
                editing ? 'The id of an existing profile cannot change.' : 'Lower-case letters, digits and hyphens; from the name if empty.'
              }
              value={id || (editing ? '' : slug(name))}
              onChange={(e) => setId(e.currentTarget.value)}
              disabled={!!editing}
            />
            <ChoiceSelect
              label="Environment"
              data={[
                { value: 'nonprod', label: 'Non-production' },
                { value: 'prod', label: 'Production (https required; revocations ask for confirmation)' },
              ]}
              value={environment}
              onChange={setEnvironment}
            />
            <TextInput label="Client id" required {...bindText(clientId, setClientId)} />
            <TextInput
              label="Consent API base URL"
              required
              placeholder="https://intermediary.example/"
              {...bindText(consentApiBaseUrl, setConsentUrl)}
            />
            <TextInput label="Data API base URL" description="The Consent API's when empty." {...bindText(dataApiBaseUrl, setDataUrl)} />
            <TextInput
              label="Token URL"
              required
              placeholder="https://auth.intermediary.example/oauth2/token"
              {...bindText(tokenUrl, setTokenUrl)}
            />
            <ChoiceSelect
              label="Client authentication"
              data={[
                { value: 'client_secret_basic', label: 'Client secret (HTTP Basic)' },
                { value: 'client_secret_post', label: 'Client secret (form fields)' },
                { value: 'private_key_jwt', label: 'Private key JWT' },
              ]}
              value={authMethod}
              onChange={setAuthMethod}
            />
          </SimpleGrid>
          {usesKey ? (
            <>
              <SimpleGrid cols={2} spacing="sm">
                <TextInput label="Key id" required {...bindText(keyId, setKeyId)} />
                <ChoiceSelect label="Algorithm" data={['PS256', 'ES256', 'RS256']} value={algorithm} onChange={setAlgorithm} />
              </SimpleGrid>
              <Textarea
                label="Private key (PEM, PKCS#8)"
                description={
                  editing?.hasCredential
                    ? 'A key is stored. Paste a new one to replace it; leave empty to keep it.'
                    : 'Kept in the encrypted vault; never shown again.'
                }
                autosize
                minRows={3}
                {...bindText(secret, setSecret)}
                styles={MONOSPACE_INPUT}
                required={!editing?.hasCredential}
              />
            </>
          ) : (
            <PasswordInput
              label="Client secret"
              description={
                editing?.hasCredential
                  ? 'A secret is stored. Type a new one to replace it; leave empty to keep it.'
                  : 'Kept in the encrypted vault; never shown again.'
              }
              {...bindText(secret, setSecret)}
              autoComplete="new-password"
              required={!editing?.hasCredential}
            />
          )}
          <TextInput label="Scopes" description="Separated by spaces." {...bindText(scopes, setScopes)} />
          <SimpleGrid cols={2} spacing="sm">
            <TextInput label="Software product id" {...bindText(softwareProductId, setSoftwareProductId)} />
            <TextInput
              label="Redirect URI"
              description="Where the data holder sends the consumer back after an authorisation."
              {...bindText(redirectUri, setRedirectUri)}
            />
          </SimpleGrid>
          <Checkbox label="Open this profile at start (default)" {...bindChecked(makeDefault, setMakeDefault)} />
          <DialogFooter mutation={save} errorTitle="Not saved" onCancel={onClose} action="Save profile">
            {editing?.isCurrent ? (
              <Text size="xs" c="dimmed">
                This profile is open: changes apply when it is opened again (switch to it, or restart).
              </Text>
            ) : null}
          </DialogFooter>
        </Stack>
      </form>
    </Modal>
  );
}
