// The styles of every component and of the notices, loaded with the signed-in frame and the public pages
// other than sign-in. The sign-in form's first load carries only what it draws (styles/first.ts); these
// repeat those rules in Mantine's own order, so whichever comes last, each rule ends as it would alone.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
