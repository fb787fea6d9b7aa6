// A new password typed twice, checked here before it is sent (the API's rule: 10 to 128 characters).
import { PasswordInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import './i18n-password.ts';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** What is wrong with the pair, as an i18n key, or null when it may be sent. */
export const newPasswordProblem = (password: string, repeat: string): string | null =>
  password.length < PASSWORD_MIN ? 'password.tooShort' : password !== repeat ? 'password.mismatch' : null;

export function NewPasswordInputs({
  password,
  repeat,
  onPassword,
  onRepeat,
  showErrors,
}: {
  password: string;
  repeat: string;
  onPassword: (v: string) => void;
  onRepeat: (v: string) => void;
  /** after a first submit: the problems show beside the fields */
  showErrors: boolean;
}) {
  const { t } = useTranslation();
  const problem = showErrors ? newPasswordProblem(password, repeat) : null;
  return (
    <>
      <PasswordInput
        label={t('password.new')}
        description={t('password.rule')}
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX}
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        error={problem === 'password.tooShort' ? t(problem) : undefined}
        mb="sm"
      />
      <PasswordInput
        label={t('password.repeat')}
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX}
        value={repeat}
        onChange={(e) => onRepeat(e.currentTarget.value)}
        error={problem === 'password.mismatch' ? t(problem) : undefined}
        mb="md"
      />
    </>
  );
}
