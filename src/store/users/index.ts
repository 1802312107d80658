// The store's users area: class Users (the people on this instance, issue 24) and the user name rule.

export {
  isUserName,
  type NewUser,
  type RemovedUser,
  type StoredUser,
  USER_NAME_PATTERN,
  type UserPatch,
  Users,
} from './users.js';
