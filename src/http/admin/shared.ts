// What the admin API's routes share: their tag and their audience, a user with is_admin on its own token.
export const tags = ['admin'];
export const auth = ['admin_jwt'] as const;
