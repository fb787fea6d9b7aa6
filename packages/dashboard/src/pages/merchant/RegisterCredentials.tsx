// The credential fields each cash-register service asks for: Webkassa a login and password (and an API key
// if the service gave one), reKassa a password and the cashier's PIN. Secrets are typed as passwords, sent
// once and never shown again (the API does not give them back).
import { PasswordInput, TextInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

export type Driver = 'sandbox' | 'webkassa' | 'rekassa';

interface Field {
  name: string;
  label: string;
  secret: boolean;
  optional: boolean;
}

export const FIELDS: Record<Driver, Field[]> = {
  sandbox: [],
  webkassa: [
    { name: 'login', label: 'fiscal.login', secret: false, optional: false },
    { name: 'password', label: 'fiscal.password', secret: true, optional: false },
    { name: 'api_key', label: 'fiscal.apiKey', secret: true, optional: true },
  ],
  rekassa: [
    { name: 'password', label: 'fiscal.password', secret: true, optional: false },
    { name: 'pin', label: 'fiscal.pin', secret: true, optional: false },
    { name: 'api_key', label: 'fiscal.apiKey', secret: true, optional: true },
  ],
};

/** What the service calls the register's number: Webkassa's ЗНК, reKassa's login number. */
export const registerNumberLabel = (d: Driver) =>
  d === 'webkassa' ? 'fiscal.znk' : d === 'rekassa' ? 'fiscal.loginNumber' : 'fiscal.registerNumber';

/** The filled fields only: an optional one left empty is not sent (the API refuses an empty string). */
export const credentialsOf = (d: Driver, values: Record<string, string>): Record<string, string> =>
  Object.fromEntries(FIELDS[d].map((f) => [f.name, values[f.name]?.trim() ?? '']).filter(([, v]) => v));

export function RegisterCredentials({
  driver,
  values,
  onChange,
  required = true,
}: {
  driver: Driver;
  values: Record<string, string>;
  onChange: (v: Record<string, string>) => void;
  /** false when editing: empty fields keep the current credentials */
  required?: boolean;
}) {
  const { t } = useTranslation();
  return FIELDS[driver].map((f) => {
    const props = {
      label: t(f.label),
      required: required && !f.optional,
      value: values[f.name] ?? '',
      onChange: (e: ChangeEvent<HTMLInputElement>) => onChange({ ...values, [f.name]: e.currentTarget.value }),
      maxLength: 500,
    };
    return f.secret ? (
      <PasswordInput key={f.name} autoComplete="new-password" {...props} />
    ) : (
      <TextInput key={f.name} autoComplete="off" {...props} />
    );
  });
}
