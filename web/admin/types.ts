/** The signed-in moderator, as `GET /api/admin/me` says. */
export interface Me {
  id: string;
  name: string;
  role: 'admin' | 'moderator';
}
