"""A generated, self-contained evaluation set of chatty user turns for update-aware memory retrieval.

What it is
----------
``chat_histories()`` returns one imaginary user's chat history with an assistant, spread over many
months, as ``(haystack, chains)``:

* ``haystack`` -- every user turn the memory server would have stored: 2,000 distractor turns (asking for
  recipes, training advice, travel plans, help with emails, explanations, sharing news ...) plus the
  predecessor turn of every chain, shuffled together.
* ``chains`` -- 80 :class:`ChatChain` records. ``predecessor`` is a chatty turn that mentions a personal
  fact in passing; ``update`` is a later chatty turn that changes that fact in different words;
  ``question`` asks for the fact's current value. The ranking under test should put ``predecessor`` at
  the top when it is given ``update`` (and answer ``question`` with the updated value first).

Each chain's fact is distinct (one right predecessor per update). For 42 of the 80 chains the haystack
also holds two to four hand-written "near" turns on the same narrow subject that do not state the fact
(other running questions beside the long-run chain, other postcard questions beside the postcard chain).

How it was written
------------------
All text in this module was written for it by an AI coding assistant, from imagination, without
looking at any external benchmark or any other data generator in this repository. Nothing is
downloaded and only the standard library is used.

Distractors are composed at run time from 38 topic sections (``_TOPIC_TEXT``). Each section has its own
slot vocabularies (dishes, houseplants, destinations, symptoms ...), question templates, background
sentences and follow-ups, and templates carry inline alternatives (``<a|b|c>``) so that a template
rarely yields the same sentence twice. Shared openers, closers, asides and lead-ins are many, short
and varied, and every pool is drawn as a shuffled deck so no piece is over-used (in the default output
no sentence of seven or more words occurs in more than about ten of the 2,080 haystack turns). Chain
turns and near turns are hand-written cores wrapped from the same pools as distractors (an opener or
aside, a background sentence from the same topic, sometimes an unrelated follow-on question, a closer),
so no wrapper phrase marks them out; about 5% of all turns are typed in lower case. Predecessors run a
little longer than distractors (median 43 words against 35). Output is deterministic for a given seed
(``random.Random(seed)``).

Run ``python evaluation/chat_histories.py`` for counts, a word-length profile and sample chains.
"""

from __future__ import annotations

import itertools
import random
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChatChain:
    """One fact that the user states, later changes, and later asks about."""

    predecessor: str  # an earlier user turn that states a fact (embedded in a chatty turn)
    update: str  # a later user turn that updates that fact (also chatty)
    question: str  # a question the user might later ask about the CURRENT value of the fact


DISTRACTOR_COUNT = 2000
MIN_WORDS = 8
MAX_WORDS = 400

# ---------------------------------------------------------------------------------------------------
# Data blocks. Format: "## name [weight]" starts a section; "key: value" adds an entry; a line that
# starts with two spaces continues the previous entry. In templates, <a|b|c> picks one alternative,
# {name} draws from a slot (topic slots first, then the _general slots) and {#3-9} is a random integer.
# ---------------------------------------------------------------------------------------------------

_GENERAL_TEXT = """
## _general
slot weekday: Monday | Tuesday | Wednesday | Thursday | Friday | Saturday | Sunday
slot month: January | February | March | April | May | June | July | August | September | October
  | November | December
slot friend: Jess | Tom | Aisha | Ben | Chloe | Raj | Nina | Leo | Grace | Femi | Kate | Dan | Mei | Ollie
  | Rosa | Yusuf | Martha | Kwame | Imogen | Callum
slot time_ago: last week | a couple of days ago | on Saturday | this morning | last night | over the weekend
  | yesterday afternoon | the other day | a fortnight ago | on Sunday | earlier this week | last month
slot relative: my mum | my dad | Hannah | Owen | my aunt Carol | my cousin Ellie | Sam's mum | my grandad
  | Sam's sister Bea
slot place: the Brecon Beacons | the Mendips | Exmoor | the Cotswolds | the Forest of Dean | the Gower
  | the Quantocks | Dartmoor | the Jurassic Coast | the Wye Valley | the Malvern Hills | Purbeck
slot dest: Copenhagen | Seville | Krakow | Edinburgh | the Isle of Skye | Ljubljana | Bologna | Amsterdam
  | Vienna | Galway | Bruges | Marseille | Cornwall | Valencia | Tallinn | Budapest | the Scilly Isles
  | Berlin | Naples | Ghent | Trieste | Bordeaux | Norfolk | San Sebastian
open: Hi<!|,|.| there!>
open: <Hey|Hiya|Hello|Hey hey>!
open: <Morning|Good morning|Morning all>!
open: <Okay|OK|Right>, <new question|different topic|next thing|something else>.
open: Quick question<| for you| if you've got a sec>.
open: Can I pick your brain about <something|a thing|this>?
open: I need a <second opinion|sanity check|bit of advice|fresh pair of eyes>.
open: Random one<|, sorry|, bear with me>.
open: <Evening|Good evening|Evening, hope it's a calm one>!
open: Me again<!|, sorry!|, as promised.>
open: Hope you don't mind <another question|one more|a slightly odd one>.
open: This might be a <silly|daft|very basic|stupid> question.
open: Bit of a <long one|ramble|saga>, <sorry|bear with me|apologies>.
open: So<,|...> here's <my situation|the thing|what's going on>.
open: <Help!|Help needed!|SOS!>
open: Good <afternoon|evening|morning>.
open: I've got a <slightly odd|practical|nerdy|boring but important|quick> question.
open: Thanks for <the help|your help|the advice> <earlier|yesterday|last time|the other day>, it was <genuinely
  useful|spot on|a big help>.
open: That worked, by the way<|, thank you|, you were right>.
open: Your last suggestion <was spot on|worked a treat|went down well>, so I'm back for more.
open: Okay, I'm <procrastinating|avoiding my inbox|meant to be doing the ironing>, so <let's at least make it
  productive|here's a question|humour me>.
open: Something's been <bugging me|on my mind|nagging at me><| all day| this week>.
open: Hello again<!|.|, it's me.>
open: I could use <some advice|a hand|your help|a steer>.
open: <Ugh|Argh|Right then|Okay then|Sigh>.
open: <First world problem incoming|Tiny crisis over here|Minor drama, nothing serious>.
open: Sorry if you've <answered this before|already covered this|heard this one before>.
open: <A practical one today|Something practical today|An easy one today, I hope>.
open: <Two-minute|Five-minute|Quick-ish> question, hopefully.
open: <Afternoon|Good afternoon|Afternoon, hope your day's going well>!
open: Let's see if you can help with <this one|my latest problem|something>.
open: Not urgent, but I'm <curious|wondering|stuck>.
open: Hi, hope you're well<|, if that's a thing for you|, whatever that means for an AI>.
open: <Question|Quick one|Another one> for you<| while I think of it| before I forget>.
open: <Right|Okay|So>, I've been going round in circles on this.
open: <Back again|Round two|Part two of my questions>!
open: I'm hoping you can <settle this|untangle this|make sense of this> for me.
open: Can you help me <think something through|figure something out|with something small>?
open: <Happy Friday|Happy Monday, sort of|Happy weekend>!
open: Okay, <don't laugh|no judgement|promise not to judge>.
open: Can I run something past you?
close: <Thanks|Thank you|Cheers|Ta>!
close: <Thanks|Cheers|Thank you> in advance.
close: Any help <appreciated|would be amazing|gratefully received|welcome>.
close: Keep it <short|brief|snappy> if you can.
close: No rush<|, whenever| at all>.
close: Bullet points would be <great|ideal|easiest for me>.
close: Be honest<!|, I can take it.|, please.>
close: Thank you<!| so much!| very much.>
close: Happy to give more details if that <helps|would help|makes it easier>.
close: Let me know if you need <more context|more info|anything else from me>.
close: You're <a star|a legend|the best>.
close: <Cheers|Thanks|Ta>, <much appreciated|much obliged|I owe you one>.
close: A straight answer would be <lovely|ideal|great>.
close: Thanks, <you're|that's> a <lifesaver|huge help>.
close: I'll report back<| on how it goes| with the results>.
close: Fingers crossed there's <an easy|a simple|a cheap> fix.
close: Thank you, as <always|ever>.
close: <Much|Really> appreciated.
close: Your best guess is fine, I <won't hold you to it|know it's hard to say>.
close: <Many thanks|Thanks a million|Thanks loads>.
close: What do you <reckon|think|suggest>?
close: <Thoughts|Ideas|Suggestions>?
close: Would love your <take|view|thoughts>.
close: Over to you<!|.>
close: Don't worry about being <diplomatic|polite|gentle>.
close: Grateful for any <pointers|tips|ideas>.
close: Looking forward to <your answer|hearing what you think>!
close: Short and sweet is <fine|perfect>.
close: Thank you, you're <very patient with me|a saint|endlessly patient>.
close: I'm all ears.
close: <Lovely|Brilliant|Great>, thanks.
close: Any thoughts <welcome|gratefully received>.
close: <Appreciate it|Appreciated>!
close: Go easy on me, I'm <tired|new to this|a bit frazzled>.
close: Assume I know nothing<| and you won't go far wrong>.
close: I'm taking notes<|, I promise>.
aside: It's been <pouring|raining non-stop|drizzling|grey and miserable> <all week|since Sunday|for what feels
  like a month|for days> here.
aside: I've had a <ridiculously|really|weirdly|properly> long day<| at work|, and it's only Tuesday>.
aside: Sam's away <for work|at a conference|visiting his parents> <this week|until Thursday|for a few days>,
  so it's just me and the animals.
aside: I'm <writing this|typing this|on my phone> on the bus, so excuse any typos.
aside: <Finally|At last>, a quiet evening<.|!| to myself.>
aside: I'm sitting in the garden with a <cup of tea|coffee|slice of toast> and feeling <unusually organised|
  almost smug|very grown-up>.
aside: Today was one of those days where <nothing went to plan|everything took twice as long|I lost my keys
  three times>.
aside: The sun's out for once<!|, which has put me in a good mood.|, so I'm feeling optimistic.>
aside: I'm supposed to be <working|tidying|doing my tax return>, but this has been on my mind.
aside: Biscuit is <snoring|twitching in his sleep|chewing a toy loudly> next to me as I type this.
aside: Miso has claimed my lap, so I'm typing <one-handed|very slowly|with great difficulty>.
aside: It's <Sunday|Saturday morning|a grey Sunday> and I'm in full life-admin mode.
aside: My to-do list is <out of control|a novel|longer than my arm> this week.
aside: I woke up at <5am|half four|6am on a Saturday> for no reason<, so here I am| and couldn't get back to
  sleep| and gave up trying>.
aside: I've just got back from a <walk|run|swim> and I'm thinking clearly for once.
aside: The neighbours are having a <party|very loud dinner|karaoke night>, so I'm clearly not sleeping any
  time soon.
aside: I'm on my <lunch break|coffee break|ten-minute break between meetings>, so <I've got about ten minutes|
  this has to be quick|forgive the brevity>.
aside: <Long week|Long fortnight|Hectic few days>, but it's nearly over.
aside: I'm in a cafe <waiting for a friend|killing time before an appointment|hiding from my inbox>.
aside: It's properly cold today and I've got <three jumpers|two pairs of socks|a blanket> on.
aside: I'm trying to clear a backlog of random questions <tonight|this morning|before the weekend>.
aside: <Bank holiday weekend|Long weekend|Day off>, finally.
aside: I've been meaning to ask this for <ages|weeks|a while>.
aside: Writing this at <midnight|1am|an unreasonable hour>, so forgive me.
aside: My brain is <fried|mush|porridge> after a day of <spreadsheets|meetings|admin>.
aside: It's a rare <day off|quiet afternoon|free evening> and I'm determined to use it well.
aside: Sam is cooking tonight, so I've got <a rare half hour|some unexpected free time>.
aside: I'm in the waiting room at the <dentist|garage|hairdresser's> with nothing better to do.
aside: Just made a <huge|very strong|slightly burnt> coffee and I'm ready to tackle things.
aside: The flat is <finally tidy|a tip|full of laundry> and I'm avoiding it.
aside: I've got the radio on and I'm in a <chatty|productive|weirdly good> mood.
aside: <Grey|Windy|Gloriously sunny> day in Bristol.
aside: Between meetings, so I'll be quick.
trans: <So|Anyway|Right>,
trans: My question is:
trans: <Basically|Essentially>,
trans: Long story short,
trans: What I <want|need> to know is:
trans: So my <question|actual question|real question>:
trans: The <question|thing I'm stuck on> is,
trans: Here's what I'm <wondering|trying to work out>:
trans: With all that in <mind|the mix>,
trans: Given <that|all that>,
trans: Right, so
trans: Which brings me to <this|my question|the point>:
trans: In short,
trans: Anyway, to get to the point,
trans: <All of which is to say|Point being>,
trans: So, <practically speaking|in practical terms>,
trans: The short version:
trans: <Okay|Right|Anyway>, the actual question<.|:>
trans: Here's the thing I can't <work out|figure out>:
trans: <Long preamble|Sorry for the essay|That was a lot of context>, sorry.
trans: <Context over|That's the background>, so
trans: So I suppose my question is,
trans: <Help me out here|Bear with me>:
trans: What would you do?
trans: Anyway, enough rambling.
trans: Where I'm stuck is this:
trans: <So|Anyway>, the question:
also: Also, unrelated:
also: Oh, and
also: Completely different <topic|subject|thing>, but
also: While I have you,
also: <Separate|Unrelated|Different> question:
also: One more thing:
also: And <totally|completely> unrelated,
also: Also,
also: Side note:
also: Random, but
also: Switching gears:
also: Before I forget,
also: <PS:|P.S.>
also: Oh, and while I think of it,
also: Totally off topic, but
also: Another thing that's been on my mind:
also: Last thing, I promise:
also: Changing the subject entirely,
"""

_TOPIC_TEXT = """
## cooking
slot dish: mushroom stroganoff | dal makhani | shakshuka | a Thai green curry | pad see ew | a halloumi traybake
  | vegetable lasagne | black bean chilli | gnocchi with brown butter and sage | a spinach and ricotta pie
  | miso-glazed aubergine | a proper ramen broth | bibimbap | a chickpea and squash tagine | leek and potato soup
  | falafel | cauliflower cheese | a mushroom and chestnut wellington | paneer tikka | tofu katsu curry
  | French onion soup | a pea and mint risotto | bean enchiladas | caponata | a Sri Lankan dhal | jollof rice
slot ingredient: fennel | celeriac | tahini | miso paste | smoked paprika | preserved lemons | a bag of red lentils
  | half a butternut squash | gochujang | dried porcini | a block of feta | kohlrabi | cavolo nero
  | tinned jackfruit | pomegranate molasses | sumac | a jar of harissa | a whole savoy cabbage | leftover rice
  | nutritional yeast | a bunch of radishes | a tub of ricotta | frozen edamame
slot equipment: a food processor | a stand mixer | a slow cooker | a wok | a pressure cooker | an oven
  | a blender | a mandoline | a cast iron pan | an air fryer
slot guests: six people | Sam's parents | a friend who's coeliac | two fussy teenagers | my book club
  | a colleague who can't eat garlic | eight people on a tight budget | a neighbour recovering from surgery
ask: Can you give me a recipe for {dish} that doesn't need {equipment}?
ask: I've got {ingredient} <sitting in the fridge|lurking in the cupboard|left over from the weekend> and no idea
  what to do with it. Any ideas that <aren't just soup|don't take all evening|a beginner could manage>?
ask: What's the trick to getting {dish} to taste like it does in restaurants? Mine always comes out <a bit flat|
  kind of watery|oddly bland>.
ask: I'm cooking for {guests} on {weekday}. Could you suggest a menu with a starter, a main and something
  <simple|low-effort|make-ahead> for pudding?
ask: How long do leftovers of {dish} keep in the fridge, and do they freeze <well|okay|without going weird>?
ask: Can I swap {ingredient} for something else in {dish}, or will that ruin it?
ask: What's actually the difference between sweating and sautéing onions? Recipes use both and I've never
  <been sure|asked>.
ask: Could you scale a recipe for {dish} down to two portions? The one I found serves eight and the maths is
  <getting messy|defeating me>.
ask: Why does my rice always <stick to|burn on> the bottom of the pan even when I follow the packet instructions?
ask: Is there a way to make {dish} a bit lighter without losing what makes it good?
ask: If you could only keep ten spices in a small kitchen, which would they be?
ask: Give me <three|a few> weeknight dinners that use {ingredient}, ideally under <thirty|forty> minutes each.
ask: What's a good make-ahead dish for a picnic that won't go soggy in a cool box?
ask: Any good ways to use up a glut of courgettes? The neighbours keep leaving them on our doorstep.
ask: How do I know when oil is hot enough for shallow frying if I don't have a thermometer?
ask: What can I cook in one pot on a {weekday} night when I really can't face washing up?
ctx: <I tried|I had a go at|I attempted> making {dish} {time_ago} and it was <edible but nothing special|
  fine but bland|honestly a bit of a disaster|good but took three hours>.
ctx: Our kitchen is <tiny|a galley|basically a corridor>, <about half a metre of counter|barely any worktop>,
  so anything with <lots of|loads of|a dozen> bowls is out.
ctx: Sam has decided he <hates|can't stand|is 'off'> coriander <this month|again|lately>, so I'm working around that.
ctx: I bought {ingredient} on a whim at the <market|greengrocer's|big Tesco> and now I feel obliged to use it.
ctx: I'm trying to cook more from scratch and lean less on <supermarket meal deals|takeaways|ready meals>.
ctx: The last recipe I <followed|found online> had about <forty|thirty-five> ingredients and I <gave up|lost the
  will to live> halfway down the list.
ctx: Last time I <made|cooked> {dish} I set off the smoke alarm <twice|three times>, so please keep it simple.
ctx: We're trying to <waste less food|spend less on the food shop|eat down the freezer>, so I'd rather use
  what's already <in|lurking in> the cupboard.
ctx: I've got {guests} coming round and I want something that looks <impressive|fancy|effortful> but is secretly
  easy.
ctx: My knife skills are <honestly terrible|slow and wobbly|non-existent>, so <minimal|not much> chopping would be
  amazing.
ctx: {friend} made {dish} for us {time_ago} and I've been thinking about it ever since.
ctx: I batch cook on <Sunday afternoons|Sunday evenings|whichever weekend day is free> <when I can|if the weekend
  allows>, so things that reheat well are gold.
fol: <Also|And>, can I prep any of it <the night before|in the morning|ahead>?
fol: I'm a <fairly confident|reasonably competent|decent> cook, so no need to over-explain.
fol: Please keep it simple, it's <for a weeknight|a work night|after a long day>.
fol: Grams rather than cups, <please|if you can>.
fol: Our hob is <electric and slow to heat|an old gas one with two working rings>, if that matters.

## baking
slot bake: banana bread | focaccia | cinnamon buns | Victoria sponge | lemon bars | brownies | hot cross buns
  | tarte tatin | oat cookies | Basque cheesecake | scones | chocolate babka | shortbread | croissants
  | bagels | flapjacks | plum crumble | gingerbread | coffee and walnut cake | pretzels | Welsh cakes
slot problem: sank in the middle | came out dry | spread into one giant cookie | didn't rise at all
  | had a gummy layer at the bottom | burnt on top but stayed raw inside | tasted weirdly of bicarb
  | welded itself to the tin
slot tin: a 20 cm round tin | a 900 g loaf tin | a 23 cm square tin | a bundt tin I've never used
  | a shallow traybake tin | a muffin tray | a cast iron skillet
ask: My {bake} {problem} <last time|the last two times>. What's the most likely cause?
ask: Could you give me a recipe for {bake} that works in {tin}?
ask: How do I convert a cup-based American recipe for {bake} into grams without it going wrong?
ask: What's the difference between baking powder and bicarbonate of soda, and can I swap one for the other?
ask: Can I make {bake} with oil instead of butter, and what changes if I do?
ask: I want to bake something for a colleague's leaving do on {weekday}. Will {bake} survive a bus journey in a tin?
ask: How do you tell when {bake} is actually done? The skewer test never seems reliable for me.
ask: Is it worth buying an oven thermometer? I <suspect|am fairly sure> my oven lies about its temperature.
ask: What can I use instead of eggs in {bake}?
ask: What does 'cream the butter and sugar until pale and fluffy' really mean? How long should it take by hand?
ask: How do I stop the fruit sinking to the bottom of a cake?
ask: What's a good bake for someone who doesn't like things too sweet?
ask: Why do some recipes tell you to rest cookie dough overnight? Does it really make a difference?
ask: Can I freeze {bake}, and should I freeze it before or after baking?
ctx: I made {bake} {time_ago} and it {problem}, so my confidence is a bit <shaky|dented|wobbly>.
ctx: Our oven is an <ancient|elderly|temperamental> fan oven that came with the flat and has a mind of its own.
ctx: {friend} brought round homemade {bake} <last week|recently|at the weekend> and now I'm <determined|desperate>
  to match it.
ctx: All I've got is {tin}, so anything that needs special equipment is out.
ctx: There are <four|five|three> overripe bananas and some <sad|wrinkly> apples in the fruit bowl.
ctx: Baking has become my <Sunday afternoon|Saturday morning|rainy day> <ritual|therapy> and I'm trying to branch out.
ctx: The kitchen gets <really|properly|freezing> cold in winter, which I think is messing with anything that needs
  to prove.
ctx: I tend to halve recipes because there are only two of us and <we have no self-control around cake|Sam would
  eat the lot>.
ctx: I'm trying to bake with <less sugar|wholemeal flour|whatever's in the cupboard> where I can.
ctx: I've been watching <too much|a lot of> Bake Off and it's given me <ideas|delusions of grandeur>.
ctx: Our scales are <digital but temperamental|an old balance set from my gran>, so precision is relative.
ctx: {friend}'s birthday is on {weekday} and I've promised to bring something homemade.
fol: Metric <measurements|quantities> please, I don't own cups.
fol: I'm still <fairly|pretty> new to baking, so spell it out.
fol: Our oven runs a bit <hot|cold>, if that changes anything.
fol: Thanks, I'll give it a go <this weekend|on Sunday|tonight>.

## running
slot session: intervals | a tempo run | hill repeats | an easy recovery run | strides | a fartlek session
  | a progression run | threshold reps
slot body: my left knee | my right Achilles | my shins | my hip flexors | the arch of my foot | my IT band
  | my lower back | my right calf
slot weather: when it's below freezing | in the middle of a heatwave | in heavy rain
  | when it's really windy along the river | in the dark after work | on icy pavements
ask: What's the point of {session}? My plan has them every week and I'm not sure what they're for.
ask: I've got a niggle in {body} after runs. Is it safe to keep going gently or should I <rest|back off>?
ask: Any <tips|advice> for running {weather}?
ask: How do I know if I'm running my easy runs too fast?
ask: Could you explain heart rate zones in plain English? My watch keeps saying I'm in zone 4 when I'm barely
  trying.
ask: What's a good strength routine for runners that takes twenty minutes and needs no equipment?
ask: Is a gait analysis at a running shop worth it, or is it <mostly a sales tactic|just a way to sell shoes>?
ask: How should I taper in the week before a race?
ask: What do you eat before an early morning run when your stomach can't handle much?
ask: How do people work out a realistic race pace from their training runs? Is there a rule of thumb?
ask: Is foam rolling actually useful, or do people just enjoy the pain?
ask: What's the best way to carry keys and a phone on a run without everything bouncing around?
ask: Should I run with music, or is it better to go without?
ask: How do I get back into running after {#2-5} weeks off with a <cold|chest infection|bad back> without hurting
  myself?
ctx: I did {session} {time_ago} and felt <much worse than I expected|weirdly great|like my legs were made of lead>.
ctx: {body} has been grumbling a bit, <nothing dramatic|not painful exactly> but I've noticed it.
ctx: My running club is full of <very fast|terrifyingly fit|annoyingly cheerful> people and I always feel like the
  slow one.
ctx: I <usually|mostly|tend to> run along the Avon towpath because it's flat and <mostly traffic-free|easy to
  follow>.
ctx: I got a new running watch for my birthday and I'm <drowning in|bewildered by> data I don't understand.
ctx: The weather's been <grim|awful|unpredictable>, so most of my runs lately have been {weather}.
ctx: {friend} has started joining me on {weekday} runs, which <helps with|does wonders for> motivation.
ctx: I'm not a natural runner at all; I only started <a couple of|three|a few> years ago.
ctx: I've signed up for a <trail race|local 10K|charity fun run> with <work|friends> in {month}, mostly for the
  <t-shirt|medal|cake afterwards>.
ctx: I log everything on Strava, which has turned out to be a <motivational double-edged sword|mixed blessing>.
ctx: Running is the only thing that <properly switches my brain off|clears my head> after work.
fol: And how would I know if I'm overdoing it?
fol: Keep it practical, I don't need the <full physiology lecture|science, just the plan>.
fol: What would you do in my <shoes|position>, honestly?
fol: Are there any warning signs I should <look out for|take seriously>?

## gym
slot lift: squats | bench press | overhead press | pull-ups | lunges | Romanian deadlifts | hip thrusts
  | bent-over rows | dips | kettlebell swings | Bulgarian split squats | goblet squats
slot goal: getting stronger without bulking up | better posture at my desk | being able to do a proper pull-up
  | not getting winded on the stairs | a stronger core for running | feeling less creaky in the mornings
ask: Can you check my understanding of how to brace for {lift}? I <feel like|suspect> I'm doing it wrong.
ask: What's a good accessory exercise to help with {lift}?
ask: How many sets and reps should I do if my goal is {goal}?
ask: Is it bad to train the same muscle group two days in a row?
ask: What does progressive overload actually mean in practice for someone who isn't a powerlifter?
ask: How much protein do I realistically need, and is protein powder worth buying?
ask: I feel self-conscious in the free weights area. Any tips for getting over that?
ask: Could you suggest a twenty-minute workout for when the gym is packed and I can only grab a bench and some
  dumbbells?
ask: Why do my wrists hurt during {lift}? Is it a mobility thing?
ask: What's the difference between normal muscle soreness and an actual injury?
ask: Should I do cardio before or after weights?
ask: Is it worth booking a personal trainer for <a couple of|a few> sessions just to check my form?
ask: How do I warm up properly for {lift} without spending half the session on it?
ctx: I've been going to the gym <fairly consistently|reasonably regularly> for about <eight months|a year> now.
ctx: My main goal is {goal}, nothing competitive.
ctx: I've never felt confident with {lift}; <they|it> always <feel|feels> awkward.
ctx: The gym near me gets <unbearably|ridiculously> busy after five.
ctx: {friend} keeps trying to get me to try <CrossFit|a bootcamp class|powerlifting><| with them>.
ctx: I'm following a programme from an app but it doesn't explain <much|why it does anything>.
ctx: I tweaked my shoulder <a while ago|last year> and I'm still <cautious|a bit wary> with anything overhead.
ctx: I've been filming my sets on my phone to check form, which is <mildly mortifying|deeply humbling>.
ctx: I train at a <council leisure centre|cheap chain gym> where the equipment is <ancient|fine but always taken>.
ctx: My posture is <terrible|pretty rounded> from years of hunching over a laptop.
ctx: I keep a training log in my notes app, which is half numbers and half <complaints|swearing>.
fol: Please keep it beginner-friendly.
fol: How long until I should <expect to see|notice> progress?
fol: Anything I should <absolutely avoid|steer clear of>?

## outdoors
slot kit: waterproof trousers | a decent head torch | walking poles | gaiters | a bike computer
  | clipless pedals | a handlebar bag | a lightweight rain jacket | merino base layers | a proper map case
ask: Can you suggest a circular walk of about {#10-20} km in {place} with a pub near the end?
ask: Are {kit} worth the money, or <the kind of thing you buy once and never use|just a gimmick>?
ask: What's the right way to layer clothes for a winter walk so I'm not sweating on the climbs and freezing at the top?
ask: How do I fix a puncture at the roadside when I've only ever done it at home with plenty of time?
ask: What does a grade like 'strenuous' actually mean on a walking route description?
ask: I've never used an OS map properly. Could you explain contour lines and grid references?
ask: Is it safe to go walking alone in {place} if I tell someone my route?
ask: How do I set my bike saddle height? My knees ache after longer rides.
ask: What's a good lunch to carry on a long walk that doesn't end up squashed?
ask: Which gear should I be in when setting off up a hill? I always grind to a halt halfway.
ask: What are the rules about wild camping in England compared to Scotland?
ask: How do I clean walking boots caked in mud without ruining the waterproofing?
ask: How do you read the weather on a hill when the forecast was completely wrong?
ctx: I went walking in {place} {time_ago} and the weather turned <very quickly|in about ten minutes|without
  warning>.
ctx: My walking boots are about <ten|twelve> years old and starting to let water in.
ctx: {friend} and I are trying to do one proper <walk|day out in the hills> a month.
ctx: I'm not super fit but I like long days outside <as long as there's a decent lunch|if there's cake at the end>.
ctx: I've been eyeing up {kit} for ages but can't justify it.
ctx: The last time I went out, I got lost for <about an hour|ages> because my phone died.
ctx: We usually drive out somewhere on a {weekday} and walk until we're <hungry|tired|soaked>.
ctx: My bike has been sitting in the shed looking <reproachful|neglected> <all winter|for weeks>.
ctx: I'm trying to get outside more at weekends instead of <scrolling on the sofa|doing chores all day>.
ctx: Sam is a reluctant walker unless there's a <pub|tea room|chip shop> involved.
ctx: {place} is about an hour's drive from us, which makes it an easy day out.
fol: And what's the one thing people usually get wrong?
fol: I'm reasonably fit but <no mountain goat|not fast>.
fol: Cheap options preferred, my kit budget is <small|tiny>.

## movement
slot class: barre | hot yoga | spin | aerial hoop | body pump | reformer pilates | boxing fitness
  | aqua aerobics | a dance cardio
ask: What's the difference between vinyasa and hatha yoga? The studio timetable lists both.
ask: Can you suggest a ten-minute stretching routine for tight hamstrings?
ask: How do I learn a tumble turn in the pool without inhaling half of it?
ask: Is pilates a good complement to strength training, or does it overlap too much?
ask: Why do I always get a stitch when I swim front crawl?
ask: Yoga teachers keep saying 'breathe into your back'. What does that actually mean?
ask: Is it possible to improve flexibility in your thirties, or has that ship sailed?
ask: What's a fun exercise class for someone who hates exercise classes?
ask: How do I stop my lower back arching when I hold a plank?
ask: What are good wrist-strengthening exercises for yoga and climbing?
ask: Is an open water swimming course worth it if I've only ever swum in pools?
ask: How do I do a proper push-up? I think I've been doing a weird half version for years.
ask: Which is better for a stiff back, <yoga or pilates|swimming or yoga>, if I can only do one?
ask: How do I stop my <knees|wrists> aching in downward dog?
ask: Is it okay to stretch <cold|first thing in the morning>, or should I warm up first?
ctx: I've been trying to mix up my exercise so it's not all running and weights.
ctx: {friend} dragged me to {class} class {time_ago} and I was sore for <days|the rest of the week>.
ctx: My flexibility is <shocking|a joke|a bit tragic>; I can barely touch my knees, never mind my toes.
ctx: The leisure centre has started <adult-only lanes|a quiet session> in the evenings.
ctx: I sit at a desk most of the day and my hips feel like <concrete|they've rusted>.
ctx: I've got a mat and a couple of resistance bands at home but that's about it.
ctx: The climbing wall near work does a cheap lunchtime session<| on weekdays|, which is tempting>.
ctx: I'd like to be more flexible mostly so that putting socks on stops being an <event|ordeal>.
ctx: The studio near us runs a <pay-as-you-go|community> class on {weekday} evenings.
ctx: {friend} swears by <pilates|yoga|swimming> for back pain and won't stop telling me about it.
ctx: I get bored easily, so routines that <change things up|vary a lot> work best for me.
fol: Something I could do in the <living room|flat|bedroom> would be ideal.
fol: How often would I need to practise to <notice a difference|see any change>?
fol: Is there a beginner version I can start with?

## travel
slot traveller: Sam and me | me and two friends | my parents and me | a group of six | my mum and me
  | Sam, two friends and me
slot length: a long weekend | four nights | a week | five days | a couple of nights
slot interest: food markets | street art | old bookshops | hiking | architecture | cheap but good wine
  | swimming spots | galleries | vintage shops | live music | bakeries
ask: Can you sketch out an itinerary for {length} in {dest} for {traveller}? We're into {interest}.
ask: Is {dest} doable by train from Bristol, or is flying the only realistic option?
ask: What's the best time of year to visit {dest} if we want to avoid crowds but still have decent weather?
ask: Which neighbourhood would you stay in for {length} in {dest} if we care about {interest}?
ask: How much spending money would you budget per day in {dest}, not counting accommodation?
ask: Is the travel insurance that comes with a bank account good enough, or should I get a separate policy?
ask: What's the smartest way to pack for {length} with only hand luggage?
ask: Are there any scams or tourist traps I should watch out for in {dest}?
ask: Can you suggest a day trip from {dest} that's easy on public transport?
ask: Do I need to book restaurants in advance in {dest}, or can we just wander in?
ask: What local dishes should I <definitely|absolutely> try in {dest}?
ask: How early should I get to Bristol airport for a morning flight in the school holidays?
ask: Is an eSIM worth it for {length} abroad, or should I just pay for roaming?
ask: Could you compare a hotel versus an apartment for {length} in {dest}?
ask: What's a good <rainy-day|evening> plan in {dest} if the weather lets us down?
ctx: We've been talking about {dest} for <ages|years> and I think this might finally be the year.
ctx: It'd be {traveller} going, on a <fairly tight|modest|not-quite-shoestring> budget.
ctx: I'm <terrible|hopeless> at planning trips; I always end up booking <everything|things> last minute.
ctx: We're into {interest} more than big sightseeing checklists.
ctx: I've got some leave I need to use before {month} or I'll lose it.
ctx: Flights from Bristol seem to be either <really cheap|suspiciously cheap> or absurdly expensive, with nothing
  in between.
ctx: {friend} went to {dest} {time_ago} and hasn't stopped talking about it.
ctx: Nobody in our group wants to <hire a car|drive abroad>, so it has to work on public transport.
ctx: I'd like at least one day that's <just wandering|completely unplanned|spent by the water>.
ctx: Last time we went away we <over-planned|packed too much in> and came back exhausted.
fol: Rough costs would be <really helpful|useful>.
fol: Please flag anything I'd need to <sort|book> well ahead.
fol: We're not fussy, we just want to avoid obvious mistakes.
fol: I'll probably have follow-up questions once I've talked it over with <everyone|Sam|the others>.

## trip_stories 0.5
slot souvenir: local spices | olive oil | dried mushrooms | a bottle of very strong liqueur | a wheel of cheese
  | tins of fancy sardines | loose-leaf tea | hand-painted tiles
ask: I just got back from {dest} and I want to write a short travel diary before I forget everything. Could you
  help me structure it?
ask: Our flight home from {dest} was cancelled. Am I entitled to compensation, and how do I claim?
ask: How do you get over the post-holiday slump? I've been back from {dest} for {#2-6} days and I'm miserable.
ask: Can you help me write a nice review for the guesthouse we stayed at in {dest}? The owners were lovely.
ask: My suitcase came back from {dest} with a broken wheel. Should the airline cover that?
ask: I brought back {souvenir} from {dest}. Any ideas what to do with <it|them> besides letting <it|them> sit
  in the cupboard?
ask: I took about <600|900|1,200> photos in {dest}. How do I sort them without losing the will to live?
ask: What's the best thing to do with leftover foreign currency? We have about {#30-90} euros in coins and small notes.
ask: Can you help me make a short photo book from our trip to {dest}? I'd like a simple structure.
ask: How do I keep the holiday feeling going now we're back? We loved the slow mornings in {dest}.
ctx: The highlight of {dest} was honestly just sitting in a square with a <coffee|glass of wine> watching everyone.
ctx: We got caught in a thunderstorm <on the second day|halfway through a walking tour> and sheltered in a
  <launderette|bakery> for an hour.
ctx: The food was <incredible|the best part>, especially the little places away from the main streets.
ctx: I came home with a suitcase full of {souvenir} and not much else.
ctx: The trip went by <far too fast|in a blur>.
ctx: We're still recovering from the journey home, which involved a <rail replacement bus|four-hour delay|
  missed connection>.
ctx: I spent most of the trip eating, which I regret not at all.
ctx: Sam has already started talking about going back <next year|in the spring>.
fol: No rush, I'm still unpacking.
fol: Thanks, you're better at this kind of admin than I am.

## gardening
slot plant: lavender | fig trees | rosemary | hydrangeas | clematis | salvias | apple trees | dahlias
  | blueberries | fuchsias | bay trees | penstemons | climbing roses | sage | hebes
slot pest: slugs | vine weevils | aphids | pigeons | cabbage white caterpillars | foxes | ants | blackfly
  | snails
ask: When's the right time to prune {plant}, and how hard can I cut it back?
ask: Something is eating my {plant} overnight. Could it be {pest}, and what can I do that's wildlife-friendly?
ask: Can I grow {plant} in a pot on a shady patio, or is that a lost cause?
ask: What should I be doing in the garden in {month}?
ask: How do I make compost without it turning into a slimy, smelly mess?
ask: Is collecting rainwater worth it, and what size water butt would you get for a small garden?
ask: What are some plants that bees love and that keep flowering into autumn?
ask: The soil here is heavy clay. What can I add to improve it without spending a fortune?
ask: How do I take cuttings from {plant}?
ask: Is it okay to put coffee grounds on the garden, or is that a myth?
ask: What's the practical difference between annuals, biennials and perennials?
ask: How do I protect {plant} from frost over winter?
ask: Could you suggest a planting plan for a narrow border that gets about four hours of sun?
ask: Which <herbs|salad leaves> can I grow on a windowsill <through the winter|all year>?
ask: Is it worth <buying plug plants|growing from seed> for a first go at {plant}?
ctx: Our garden is small, faces north-east and is <boxed in by fences|overlooked on all sides>, so light is
  limited.
ctx: The {pest} have been <relentless|out of control|everywhere> this year.
ctx: I inherited some {plant} from the previous tenants and I have <no idea|only a vague idea> how to look after them.
ctx: {friend} gave me some cuttings and I'd hate to kill them.
ctx: I've been spending most evenings pottering in the garden since the clocks <changed|went forward>.
ctx: We had a <very wet|cold, soggy> spring and a lot of things rotted before they got going.
ctx: I'm trying to garden without peat or chemical sprays.
ctx: Our landlord is relaxed about the garden as long as we don't <dig up the patio|touch the hedge>.
ctx: Half my pots are on a <narrow side return|strip of paving> that only gets afternoon sun.
ctx: I've started keeping a little garden <diary|notebook> so I remember what worked.
fol: I'm very much a beginner, so simple steps <please|would be best>.
fol: Anything I should do right now, or is it too late <this year|for this season>?
fol: Is there a lazy option? I'm not out there every day.

## houseplants
slot hp: pothos | snake plant | fiddle leaf fig | peace lily | calathea | string of pearls | ZZ plant
  | spider plant | Chinese money plant | bird of paradise | rubber plant | hoya | maidenhair fern | jade plant
  | begonia maculata | philodendron
slot symptom: crispy brown leaf edges | yellowing lower leaves | leaves curling inwards
  | drooping even though the soil is damp | tiny webs under the leaves | no new growth for months
  | white fluffy spots on the stems | leggy stems reaching for the window
ask: My {hp} has {symptom}. What's going on, and can I save it?
ask: How often should I water a {hp} in winter?
ask: Is a {hp} safe to have around cats?
ask: What's the easiest way to propagate a {hp}?
ask: Which houseplants can cope with a dark bathroom that only has a frosted window?
ask: Do I need a grow light in a flat that mostly faces north?
ask: What soil mix should I repot a {hp} into?
ask: Should I be misting my plants, or is that pointless?
ask: How do I keep my plants watered when I'm away for two weeks?
ask: What's a good feeding routine for houseplants that doesn't need a spreadsheet?
ask: Can you recommend some hard-to-kill plants for a friend who's just moved into her first flat?
ask: Why are the new leaves on my {hp} <smaller than the old ones|coming out pale>?
ask: Is it better to water from the bottom or the top for a {hp}?
ctx: I've gone a bit overboard with houseplants lately<|, Sam has noticed|, every windowsill is full>.
ctx: Miso chews the leaves of anything <low enough to reach|she can get to>.
ctx: The radiator is right under the windowsill, which I <suspect|gather> isn't ideal.
ctx: I bought a {hp} from the <supermarket|garden centre> {time_ago} and it already looks unhappy.
ctx: {friend} gave me a cutting from their {hp} and I'm terrified of killing it.
ctx: I tend to either overwater or completely forget; there's no <in-between|middle ground>.
ctx: The flat gets pretty cold overnight, which I think some of the plants <hate|resent>.
ctx: I water <on Sunday mornings|whenever I remember|when the leaves look sad>, which may be the problem.
ctx: My plant shelf is by the window, so they get <bright but indirect|barely any> light.
ctx: {friend} works in a plant shop and laughs at my questions, so I'm asking you instead.
fol: Is there anything I should change now, or wait until <spring|it's warmer>?
fol: How will I know if things are <improving|on the mend>?

## dog
slot situation: pulls like a train on the lead | barks at every delivery driver
  | won't come back when there are squirrels | steals socks and runs off with them
  | gets carsick on long drives | is terrified of fireworks | jumps up at visitors
  | rolls in fox poo at every opportunity | whines when I'm on video calls
slot food: blueberries | peanut butter | cheese | apple slices | raw carrots | sweet potato | watermelon
  | plain popcorn | cucumber
ask: Biscuit {situation}. Any training tips that actually work?
ask: What's a good enrichment activity for a rainy day when Biscuit can't get a long walk?
ask: How often should a spaniel cross be groomed, and can I do it myself?
ask: Is it safe for dogs to eat {food}?
ask: What are the signs that a dog is bored rather than tired?
ask: Can you suggest a few dog-friendly pubs or cafés around {place}?
ask: How do I introduce Biscuit to a friend's dog that's a bit nervous?
ask: What should go in a doggy first-aid kit for long walks?
ask: How do I stop Biscuit guarding his toys when my niece visits?
ask: Is a dog walker better than doggy daycare for the days I'm in the office?
ask: How do I trim a dog's nails when he hates having his paws touched?
ask: Biscuit has started limping slightly after long walks. Should I rest him or see the vet straight away?
ask: How do I <teach|get> Biscuit to settle in a cafe instead of whining the whole time?
ask: Is it normal for a dog to sleep <most of the afternoon|sixteen hours a day>?
ask: What's a fair rate to pay a friend who <looks after|walks> Biscuit for a weekend?
ctx: Biscuit is a three-year-old spaniel cross with <far too much|boundless|exhausting amounts of> energy.
ctx: We adopted Biscuit from a rescue, so we don't know much about his <early life|background>.
ctx: Biscuit is lovely at home but turns into a <completely different|feral> dog on walks.
ctx: {friend} is dog-sitting Biscuit <next weekend|while we're away> and I want to leave clear instructions.
ctx: It's been so wet that Biscuit is basically permanently <muddy|damp and smelly>.
ctx: I've tried the usual treats-and-patience approach and it's working, <slowly|sort of>.
ctx: Biscuit is food-motivated to a fault, which helps with training and nothing else.
ctx: We walk along the harbourside most mornings, which is busy with <cyclists|runners> and other dogs.
ctx: Biscuit gets on with most dogs but is wary of anything bigger than him.
ctx: Sam is softer with Biscuit than I am, which <confuses the poor dog|undoes all my training>.
ctx: Biscuit has been extra clingy since we <rearranged the furniture|got back from holiday>.
fol: Kind methods only, please.
fol: How long before I should <see a change|expect results>?
fol: Is there anything I should <avoid doing|definitely not do>?

## cat
slot catthing: bring me leaves from the garden | sit on my laptop the moment I open it
  | drink from the tap instead of her bowl | attack my ankles at 5am
  | scratch the sofa when she has a perfectly good post | stare at the wall for ages | sleep in the bath
  | knock things off the shelf while looking me in the eye
ask: Why does Miso {catthing}?
ask: What's the best way to switch a cat to a new <type of litter|food>?
ask: How do I get Miso into a cat carrier without a fight?
ask: Is wet food or dry food better for an older cat?
ask: How often should I really be cleaning the litter tray?
ask: Are automatic feeders a good idea for a cat if we're away for one night?
ask: What's a good way to keep an indoor-outdoor cat safe at night?
ask: How can I tell if a cat is in pain? She's very good at hiding things.
ask: Do cats actually get along with dogs, or do they just tolerate them?
ask: Is catnip safe to give every day?
ask: Which garden plants are toxic to cats?
ask: How do I stop Miso <waking us up at dawn|yelling for breakfast at 5am>?
ask: Should I brush an older cat, and how do I get her to tolerate it?
ask: Is it <safe|okay> to leave a cat alone for a weekend with <plenty of food|a neighbour popping in>?
ctx: Miso is twelve, a bit grumpy, and very set in her ways.
ctx: Miso and Biscuit have an uneasy truce that mostly involves her <hissing|glaring> at him from the stairs.
ctx: Miso has started being much more vocal at night than she used to be.
ctx: {friend} is feeding Miso while we're away and I want to make it <easy|foolproof> for them.
ctx: Miso turns her nose up at anything new, which makes any change a <nightmare|battle>.
ctx: Miso came from a rescue as an adult, so she has quirks we've just learned to live with.
ctx: Miso is an indoor-outdoor cat but spends most of the winter on the <radiator shelf|airing cupboard floor>.
ctx: The vet says Miso is in good shape for her age, just a bit <chunky|fussy|opinionated>.
ctx: Miso hates the carrier so much she vanishes the moment it comes out of the cupboard.
ctx: Miso has been following me around the flat a lot more <lately|this week>.
fol: Should I mention it to the vet at her next check-up?
fol: Any products you'd actually recommend?
fol: Is this something to worry about, or just a cat being a cat?

## diy
slot task: put up a floating shelf | fix a dripping kitchen tap | replace a broken toilet seat
  | re-seal the bath with silicone | hang a heavy mirror | unblock a slow bathroom sink
  | fix an internal door that sticks | patch a hole in plasterboard | change a ceiling light fitting
  | fill the gap between the skirting board and the floor | fix a wobbly chair leg | replace a cracked tile
slot walltask: put up a floating shelf | hang a heavy mirror | mount a TV bracket | put up a curtain pole
  | fix a coat rack to the wall | hang a row of picture frames
slot wall: plasterboard | old lath and plaster | brick | a stud wall where I can't find the studs
ask: Could you walk me through how to {task}? I've never done it before.
ask: What tools would I actually need to {task}?
ask: I want to {walltask} but the wall is {wall}. What fixings should I use?
ask: Is it okay for a tenant to {task}, or should I ask the landlord first?
ask: How do I find out where pipes and cables run before drilling into a wall?
ask: What's a decent starter toolkit for someone renting who wants to fix small things?
ask: How do I get rid of black mould around the window frames <for good|without it coming straight back>?
ask: What's the difference between a combi drill and an impact driver, and do I need both?
ask: How do I tell if a job is simple enough to do myself or whether I should get someone in?
ask: My attempt to {task} went badly and now it looks worse. How do I undo it?
ask: How do I get rid of a damp smell in a wardrobe that's against an outside wall?
ask: What's the least messy way to fill and sand holes before <painting|we move out>?
ask: What's the best way to <fill|hide> nail holes in a rented flat before an inspection?
ask: Do I need a stud finder, or is there a low-tech way to <locate|find> studs?
ctx: Our landlord is nice but <slow|hard to pin down>, so I'd rather fix small things myself where I'm allowed.
ctx: I've got a cheap cordless drill and a lot of enthusiasm, not much else.
ctx: The flat was built in the <1930s|thirties> and none of the walls are straight.
ctx: {friend} offered to help on {weekday}, but I'd like to understand what I'm doing first.
ctx: I watched <three|four> YouTube videos and each one said something different.
ctx: I once drilled into a cable at my old place, so I'm a bit <nervous|jumpy>.
ctx: The previous tenants left a lot of odd little jobs <half-done|bodged>.
ctx: I'm much more confident with flat-pack than with anything involving <walls|water|electrics>.
ctx: Our downstairs neighbour is lovely but <works nights|has a new baby>, so noisy jobs need planning.
ctx: I'm borrowing tools from the <library of things|neighbour> rather than buying them.
fol: Step by step would be great.
fol: Roughly how long should it take?
fol: What could go wrong?

## home
slot stain: red wine | candle wax | biro ink | turmeric | coffee | mud | cooking grease | nail varnish
slot fabric: a cream rug | a cotton shirt | the sofa cushions | a wool jumper | the stair carpet | a linen tablecloth
slot item: bikes | winter clothes | board games | books | cables and chargers | cleaning supplies
  | camping gear | wrapping paper
ask: How do I get {stain} out of {fabric}?
ask: Can you help me make a simple weekly cleaning rota for two people who both hate cleaning?
ask: What's the best way to organise a tiny hallway so it isn't a dumping ground for coats and shoes?
ask: How do I make a rented flat feel more like ours without losing the deposit?
ask: Is a dehumidifier worth it for drying clothes indoors in winter?
ask: What's a good way to declutter when I'm sentimental about everything?
ask: Can you suggest some ways to make a dark living room feel brighter?
ask: How often should I actually wash pillows and duvets?
ask: What's the best way to deep clean an oven without harsh chemicals?
ask: How do I arrange furniture in a long, narrow living room so it doesn't feel like a corridor?
ask: What are good ways to store {item} in a small flat?
ask: How do I stop the bathroom mirror steaming up every single time?
ask: What's a good <morning|evening> routine for keeping the kitchen from getting out of hand?
ask: How do I get rid of the <musty|damp dog> smell in a hallway?
ctx: Our flat is a two-bed with a small garden, and the spare room has become the room where things go to die.
ctx: We've been here three years and it still feels a bit <temporary|like we're camping>.
ctx: I'm trying to spend less time cleaning and more time actually enjoying <the weekend|my evenings>.
ctx: Sam is tidy in theory but leaves a trail of <mugs|socks|receipts> everywhere.
ctx: The flat gets very little natural light in <winter|the afternoons>.
ctx: We have a lot of stuff for a small space, mostly books and hobby gear.
ctx: We have a cleaner <once a month|in theory>, but mostly it's just us.
ctx: Biscuit sheds like it's his job, so everything is <slightly hairy|covered in fluff>.
ctx: Our washing machine is in the kitchen and there's no tumble dryer.
ctx: The flat has <lovely high ceilings|big sash windows> but almost no built-in storage.
ctx: I'm trying to make the place feel cosier before <winter|the clocks go back>.
fol: Cheap options preferred.
fol: Ideally nothing that needs drilling, we're renting.
fol: Quick wins first, please.

## family
slot occasion: a 60th birthday | a christening | Mother's Day | a housewarming | Christmas | Father's Day
  | a graduation | an engagement
ask: Can you suggest a gift from me to {relative} for {occasion}? Budget's about £{#3-8}0.
ask: How do I handle {relative} giving unsolicited advice about everything without starting an argument?
ask: Could you help me write a card for {relative} for {occasion}? I always freeze at the blank card.
ask: What's a fair way to split Christmas between two families who live far apart?
ask: How do I help my dad get set up with video calls? He gets flustered with anything new.
ask: Any ideas for a family day out that works for ages six to seventy?
ask: How do I bring up the subject of wills with my parents without it feeling morbid?
ask: We're making a family photo book for {occasion}. What's a good service and layout approach?
ask: My grandad wants to write down his memories. What questions could I ask him to get him started?
ask: How do I politely decline hosting a big family gathering this year?
ask: What's a good way to keep in touch with cousins you only really see at weddings and funerals?
ask: What's a nice way to mark {relative}'s <birthday|anniversary> when we can't be there in person?
ask: Can you suggest a <board game|card game> that works for three generations at once?
ask: How do I help {relative} <sort out|declutter> decades of paperwork without taking over?
ctx: {relative} is lovely but very set in their ways.
ctx: My family are spread out, so getting everyone together is a <logistical puzzle|military operation>.
ctx: Mum and Dad live in Cheltenham, close enough for Sunday lunch but far enough to avoid drop-ins.
ctx: Hannah and I have been talking more since Lily was born.
ctx: {occasion} is coming up and I've done absolutely nothing about it.
ctx: Sam's family are very different from mine: much louder and much more into <quizzes|charades|debating>.
ctx: The family WhatsApp group is mostly Dad sending blurry photos of his <garden|lunch|car>.
ctx: Lily is at the age where everything is a question, which I love.
ctx: My aunt Carol has strong opinions and a loud voice, a dangerous combination.
ctx: Dad has just discovered podcasts and now sends me a new one every week.
ctx: Our two families only see each other properly a couple of times a year.
fol: I want to handle this kindly.
fol: Any wording ideas would help too.
fol: Nothing that needs a lot of organising, I'm stretched as it is.

## friends
ask: A friend is going through a breakup. What can I say or do that's actually helpful?
ask: Can you suggest a theme for a {#30-40}th birthday party that isn't cheesy?
ask: How do I reconnect with an old friend I haven't spoken to in years without it feeling weird?
ask: What are some cheap but fun things to do with friends on a {weekday} evening in winter?
ask: Could you help me write a speech for {friend}'s leaving party? Two minutes, max.
ask: How much is normal to spend on a wedding gift when you're also paying for travel and a hotel?
ask: I'm always the one who organises everything. How do I get others to pitch in without being passive-aggressive?
ask: Can you recommend some party games for adults who don't all know each other?
ask: How do I say no to a hen do that costs way too much?
ask: What's a good housewarming gift for {friend}, who has very particular taste?
ask: Can you help me plan a picnic for ten people in the park on {weekday}?
ask: How do I stay close to friends who've had kids when our lives look so different now?
ask: What's a good <group activity|day out> for friends who all have very different budgets?
ask: How do I tell {friend} I can't make their <party|trip> without it becoming a thing?
ask: Could you suggest a <dinner party|games night> menu that I can mostly make ahead?
ctx: {friend} and I have been friends since university and see each other maybe twice a year now.
ctx: A lot of my friends have moved out of Bristol, so weekends feel quieter.
ctx: I'm an introvert pretending to be a social butterfly, which is <exhausting|a lot of work>.
ctx: Our group chat has been planning this for weeks and nothing is decided.
ctx: {friend} is the kind of person who has everything, which makes gifts a nightmare.
ctx: {friend} is going through a rough patch and I want to be a better friend.
ctx: Most of our friends have young kids now, so plans need to be early and short.
ctx: I'm trying to see people in person rather than just reacting to their stories.
ctx: We tend to fall into the <pub-then-curry|pub-then-pizza> routine and I'd love to mix it up.
ctx: {friend} has just moved back to Bristol after years in <London|Manchester|Berlin>.
ctx: I end up hosting a lot because our flat is the most central.
fol: Ideas at different price points would be great.
fol: I'd love something that doesn't feel like a chore.
fol: Keep it low-key, nobody wants a big production.
fol: I want it to feel warm rather than formal.

## finances
ask: Can you explain the 50/30/20 budgeting rule and whether it works in an expensive city?
ask: What's the best way to track spending without checking my banking app obsessively?
ask: Is it better to pay off a small credit card balance or put the money into savings?
ask: How do I check my credit score, and does checking it lower it?
ask: Could you help me set up sinking funds for birthdays, car costs and Christmas?
ask: What's a sensible amount to keep in an easy-access savings account?
ask: How do joint accounts work for couples who don't want to merge everything?
ask: Is it worth switching bank accounts just for a switching bonus?
ask: Help me understand my payslip. What are all the deductions between gross and net?
ask: Can I still claim tax relief for working from home, and how?
ask: What's a realistic way to save for a holiday without feeling deprived all year?
ask: Can you explain how Premium Bonds work? My grandad keeps telling me to buy some.
ask: What's the <simplest|least painful> way to do a monthly money check-in with a partner?
ask: Should I <fix|lock in> an energy tariff or stay on the variable one, in general terms?
ask: How do I cancel <subscriptions|direct debits> I've forgotten about?
ctx: I've never been great with money, but I'm trying to be more <deliberate|organised> about it.
ctx: Sam and I split bills in proportion to our salaries, which mostly works.
ctx: Every month there's some surprise <expense|bill> that throws everything off.
ctx: I got a small tax refund {time_ago} and I don't want to fritter it away.
ctx: My spending on takeaways last month was <genuinely embarrassing|not something I'm proud of>.
ctx: I use a spreadsheet, but it's become so <complicated|tangled> I don't trust it any more.
ctx: I've just started using a budgeting app and it's quite <confronting|eye-opening>.
ctx: Our bills all come out <around the same day|in the first week>, which makes the end of the month tight.
ctx: I'm trying to build better habits before we <buy a place|take on a mortgage>.
ctx: Money conversations with Sam are fine, but we both <put them off|avoid them>.
ctx: By the <20th|third week> of the month things are usually looking thin.
fol: Please assume I'm in the UK.
fol: Simple language please, finance jargon makes my eyes glaze over.
fol: A worked example would really help.

## investing
ask: What's the difference between a stocks and shares ISA and a general investment account?
ask: Can you explain what a SIPP is and when it makes sense alongside a workplace pension?
ask: How worried should I be about market drops if I'm investing for twenty years?
ask: What does 'pound cost averaging' actually mean?
ask: Do I need to fill in a self-assessment tax return if I make a bit from selling things online?
ask: Can you explain the personal savings allowance and how interest is taxed?
ask: Are ethical index funds actually different, or is that mostly marketing?
ask: What happens to old workplace pensions from previous jobs? Should I combine them?
ask: How do I find out how much state pension I'm on track for?
ask: What's the difference between a fixed-rate bond and <a regular savings account|an easy-access account>?
ask: What's the difference between a tracker fund and an actively managed fund, <in plain terms|simply>?
ask: How often should a normal person <check|look at> their investments?
ask: Is it <sensible|wise> to invest while still having a small credit card balance?
ctx: I started investing <late|in my thirties> and I'm trying to catch up without doing anything silly.
ctx: I've got two small pensions from old jobs that I'd <basically|completely> forgotten about.
ctx: Everyone at work seems to be talking about investing apps and it's making me <anxious|feel behind>.
ctx: I read a scary headline about the markets {time_ago} and nearly panicked.
ctx: I'm cautious by nature and the idea of losing money makes me <queasy|anxious>.
ctx: {friend} keeps sending me links to investing podcasts, which is either helpful or alarming.
ctx: I only properly understood compound interest <last year|recently>.
ctx: My dad's advice is <'put it in the building society'|'never buy anything you can't see'>, which feels a bit dated.
ctx: I'm trying to understand my options before I change anything.
fol: I'm not asking for personal advice, just trying to understand the basics.
fol: A simple example with numbers would help.
fol: Please keep the jargon to a minimum.

## books
slot book: Piranesi | Hamnet | Wolf Hall | The Left Hand of Darkness | Small Things Like These | Station Eleven
  | Circe | The Secret History | Normal People | A Gentleman in Moscow | The Overstory | Lessons in Chemistry
  | Demon Copperhead | Tomorrow, and Tomorrow, and Tomorrow | Never Let Me Go | Rebecca | The Dispossessed
slot author: Sally Rooney | Ursula K. Le Guin | Hilary Mantel | Maggie O'Farrell | Terry Pratchett
  | Toni Morrison | Elena Ferrante | Jane Austen | Octavia Butler | Ann Patchett | Haruki Murakami
  | Sarah Waters | Donna Tartt | Zadie Smith | Anne Tyler
slot genre: cosy mysteries | literary fiction | narrative nonfiction | fantasy | historical fiction
  | memoirs | science fiction | Scandinavian crime | books about food | nature writing
slot genre2: poetry | graphic novels | classic Russian novels | short story collections | horror
  | books in translation | essays | plays
ask: I loved {book}. Can you recommend <three|a few> books with a similar feel?
ask: Where should I start with {author}?
ask: I mostly read {genre}. What would be a good gateway into {genre2}?
ask: What's a good book for a long train journey, something absorbing but not too heavy?
ask: I keep starting books and abandoning them after fifty pages. Is that a problem with me or with the books?
ask: Can you explain the ending of {book}? I finished it and I'm still confused.
ask: What are some good {genre} to read on dark autumn evenings?
ask: Is it worth reading {author} in order of publication?
ask: Could you come up with a few discussion questions for {book}?
ask: I'm buying a book for my dad, who only reads military history. Any ideas that might stretch him a bit?
ask: Can you recommend a <short|gripping> novel I could finish in a weekend?
ask: What's a good audiobook for a <long drive|rainy weekend> that two people would both enjoy?
ask: Which classic novels are <actually fun|genuinely enjoyable> rather than homework?
ctx: I've been reading a lot of {genre} lately and I need a change.
ctx: I loved {book} when I read it <last year|a while back> and I've been chasing that feeling since.
ctx: {friend} keeps pushing {book} on me and I'm not sure it's my thing.
ctx: Most of my reading happens in bed, so I like chapters that aren't too long.
ctx: I use the library a lot, so it doesn't matter if it's not a new release.
ctx: I read mostly in the bath and on Sunday mornings, which is my favourite hour of the week.
ctx: I go through phases of reading loads and then nothing at all.
ctx: I like books with a strong sense of place.
ctx: {friend} and I swap recommendations and they're winning at the moment.
ctx: I don't get on with books that are mostly about clever people being miserable.
ctx: My to-be-read pile is now a small tower by the bed.
fol: Nothing too bleak please, it's been a long <month|winter|week>.
fol: Bonus if it's under 300 pages.
fol: Cheap paperbacks preferred, my book budget is <small|tiny|already spent>.

## screen
slot show: Slow Horses | Fleabag | Severance | The Wire | Succession | Detectorists | Mad Men | Happy Valley
  | Schitt's Creek | Line of Duty | Only Murders in the Building | Shogun | The Last of Us | Taskmaster
  | Derry Girls | Blue Lights
slot film: Past Lives | Arrival | Aftersun | Inception | Anatomy of a Fall | Portrait of a Lady on Fire
  | Parasite | Everything Everywhere All at Once | The Zone of Interest | Drive My Car | Perfect Days
  | Decision to Leave | Mulholland Drive
slot docsubject: food | space | architecture | nature | music history | true crime that isn't gratuitous
  | sport | design
ask: What should I watch next if I loved {show}?
ask: Can you recommend a film for a cosy night in that Sam and I would both like? He loves action, I love slow
  character dramas.
ask: What are some good foreign-language <films|series> for someone who's just getting into subtitles?
ask: I just watched {film} and I can't stop thinking about the ending. What did it mean?
ask: Which Studio Ghibli film should someone start with if they've never seen one?
ask: Is {show} worth sticking with after the first season?
ask: What are some good documentaries about {docsubject}?
ask: Can you give me a list of classic films I should have seen by now but haven't?
ask: Help me settle an argument: is {film} a thriller or a drama?
ask: What's a good horror film for someone who scares easily but wants to try?
ask: What's a <feel-good|comforting> series to watch when I'm ill on the sofa?
ask: Can you suggest a <mini-series|limited series> we could finish over a long weekend?
ask: Which {show} episodes are <the essential ones|worth rewatching>?
ctx: Sam and I have very different taste in TV, so we end up rewatching the same comfort shows.
ctx: I've just finished {show} and there's a hole in my evenings now.
ctx: {friend} keeps telling me to watch {show}, but I'm not sure it's for me.
ctx: We've got a film night with friends on {weekday} and I'm in charge of picking.
ctx: We've been watching an episode a night with dinner, which is very much a habit now.
ctx: I like good dialogue more than big spectacle.
ctx: Sam falls asleep in anything slower than a car chase.
ctx: I get spoiled easily, so no spoilers if you can help it.
ctx: {friend} and I have a two-person film club where we alternate picks.
ctx: We had a <very wet|long|quiet> weekend and watched far too much telly.
fol: Ideally something that's streaming rather than rent-only.
fol: Nothing over two hours, please.
fol: Subtitles are fine, dubbing is not.

## music
slot album: Blue by Joni Mitchell | In Rainbows | Rumours | Kind of Blue | Pink Moon | Channel Orange
  | Homogenic | The Queen Is Dead | Punisher by Phoebe Bridgers | Currents by Tame Impala
  | Songs of Leonard Cohen | Promises by Floating Points
slot mood: upbeat | mellow | slightly melancholy | nostalgic nineties | cheerful | moody
slot activity: a long drive | cleaning the flat | a dinner party | working late | a rainy Sunday
ask: Can you recommend some albums similar to {album}?
ask: How do I get better at keeping time when I practise? I speed up without noticing.
ask: What's a good way to discover new music that isn't just the algorithm feeding me the same thing?
ask: Could you explain what a key signature is, in simple terms?
ask: Is it worth buying a digital piano with weighted keys, or is that overkill for a hobbyist?
ask: How do I restring an acoustic guitar without snapping a string?
ask: Is it weird to go to a festival on my own?
ask: What's the difference between a major and a minor chord, and why does minor sound sad?
ask: How long should I practise each day to actually improve as an adult beginner?
ask: Could you put together a playlist of {mood} songs for {activity}?
ask: What's a good metronome app that isn't full of adverts?
ask: How do I <learn|get better at> fingerpicking without it sounding robotic?
ask: What's a good <first jazz album|way into jazz> for someone who's never got it?
ask: How do I make practice <less boring|more fun> when I'm learning scales?
ctx: I've been listening to {album} on repeat for a week.
ctx: I went to a gig at the Trinity Centre {time_ago} and it reminded me how much I love live music.
ctx: Music practice is the one thing I do <purely for myself|just for fun>.
ctx: My neighbours can probably hear every wrong note I play.
ctx: I play guitar <badly|enthusiastically> and piano slightly less badly.
ctx: {friend} plays in a folk band and keeps trying to recruit me.
ctx: I grew up on my parents' records, mostly Motown and seventies singer-songwriters.
ctx: My practice time is usually half an hour after dinner, if I'm lucky.
ctx: I've started going to more small gigs lately.
ctx: I'm trying to listen to whole albums again instead of shuffle.
fol: A mix of well-known and obscure would be great.
fol: Thanks, I'll try it tonight.
fol: Explain it like I'm an enthusiastic amateur.

## health
slot symptom: a dry cough | a sore throat | a twitching eyelid | a dull headache behind my eyes
  | a stiff neck | heartburn after dinner | an itchy rash on my arm | ringing in my ears | a blocked ear
ask: I've had {symptom} for {#3-10} days. Is that worth seeing a GP about, or should I wait and see?
ask: What are the real differences between ibuprofen and paracetamol, and when should I use which?
ask: How do I get a GP appointment when the phone lines are constantly engaged at 8am?
ask: What questions should I ask at a routine health check so I don't waste the appointment?
ask: Is it normal to feel dizzy when I stand up quickly?
ask: What's a good way to remember to take vitamins every day?
ask: Can you explain what the cholesterol numbers on a blood test mean?
ask: What's the fastest way to recover from a cold? I've got a big week coming up.
ask: How much water do I genuinely need in a day?
ask: What signs do doctors look for when a mole looks a bit different?
ask: What's the evidence behind taking vitamin D in winter in the UK?
ask: Is it worth getting a <flu jab|booster> if I'm generally healthy?
ask: How do I tell the difference between a <migraine|tension headache> and an ordinary headache?
ask: What's a sensible <first-aid kit|medicine cabinet> for a flat?
ctx: I'm generally healthy but I've been feeling run down lately.
ctx: Work has been hectic and I've been ignoring my body a bit.
ctx: My GP surgery has an online form now, which is better than calling but still slow.
ctx: I'm the kind of person who Googles symptoms and then panics.
ctx: I've had a cold that's been hanging around for ages.
ctx: I'm trying to be less stoic and actually deal with things.
ctx: My mum is a worrier, so I don't want to mention this to her until I know more.
ctx: I usually ignore things until they go away, which isn't a great system.
ctx: The pharmacist near us is brilliant, so I might ask there as well.
ctx: I've been sleeping badly, which probably isn't helping anything.
fol: I know you're not a doctor, I just want a sense of whether I'm overreacting.
fol: A rough sense of what's normal would be reassuring.
fol: When would you say it's time to get it checked?

## wellbeing
ask: Can you suggest a short breathing exercise for when I'm anxious before a meeting?
ask: How do I stop doomscrolling in bed?
ask: What's a realistic journaling habit for someone who's tried and failed five times?
ask: Why do I wake up tired even after eight hours?
ask: Is meditation worth it if my mind wanders constantly?
ask: How do I switch off from work when home is also my office some days?
ask: What's a good podcast to fall asleep to that isn't too interesting?
ask: How do I deal with the Sunday-evening dread?
ask: Can you help me plan a low-effort self-care weekend?
ask: Does blue light actually affect sleep, or is it overblown?
ask: How do I say no to more commitments without feeling <guilty|awful>?
ask: What are some <calming|screen-free> things to do in the hour before bed?
ask: Can you suggest a <simple|gentle> morning routine that takes fifteen minutes?
ctx: I've been feeling frazzled and a bit flat<| lately>.
ctx: Sam falls asleep the moment his head hits the pillow, which is infuriating.
ctx: My brain likes to replay awkward conversations from years ago at 2am.
ctx: I tried a meditation app {time_ago} and fell asleep during the body scan.
ctx: Work has been full-on and I haven't had a proper weekend in a while.
ctx: I'm good at starting habits and terrible at keeping them.
ctx: My phone's screen time report was horrifying this week.
ctx: I'd like evenings to feel restful rather than just the bit before bed.
ctx: {friend} says I need a hobby that isn't productive, which annoyed me because they're right.
ctx: I've been waking up with my jaw clenched, which feels like a sign.
fol: Practical stuff, please, not 'just relax'.
fol: Small steps would suit me better than a total overhaul.
fol: Something I can start tonight would be ideal.

## shopping
slot thing: a decent pair of waterproof walking boots | a winter coat that isn't puffy
  | noise-cancelling headphones | a robot vacuum | a good chef's knife | an electric toothbrush
  | a duvet for someone who runs hot | a rucksack for commuting | a smart speaker
  | a kettle that isn't horrendously loud | a blender for smoothies | an office chair
ask: I'm looking for {thing} under £{#4-15}0. What should I look for?
ask: How do I return something bought online when the retailer is being difficult?
ask: Are refurbished electronics a good idea, and where's trustworthy?
ask: What's the difference between OLED and LED TVs if we mostly watch in a bright room?
ask: Could you compare a fancy cordless vacuum with a cheaper corded one for a small flat?
ask: How do I tell if a 'sale' price is actually a good deal?
ask: What should I check when buying a secondhand bike?
ask: I'm trying to buy fewer, better clothes. How do I build a small wardrobe that works?
ask: Are expensive mattresses really worth it?
ask: What's worth buying <secondhand|refurbished> and what should always be new?
ask: Is it worth paying more for {thing}, or is the cheap version fine?
ask: How do I <choose|pick> a good pair of jeans online without ordering five sizes?
ctx: I'm trying to buy less stuff in general, so when I do buy something I want it to last.
ctx: I made a terrible impulse purchase {time_ago} and I'm trying not to repeat it.
ctx: I'm slowly replacing things that broke over the winter.
ctx: I don't mind secondhand if it's in good condition.
ctx: I research purchases to death and then panic-buy the first thing I looked at.
ctx: Sam says I have champagne taste on a lemonade budget.
ctx: I try to avoid the big online marketplace where I can.
ctx: I'd rather spend a bit more once than replace something every year.
ctx: Our flat is small, so anything bulky needs a <very good reason to exist|proper justification>.
ctx: Payday is next week, so I'm planning rather than buying right now.
fol: Specific models would help.
fol: Mid-range prices, please.
fol: Happy with secondhand suggestions too.

## language
slot vocab: food and restaurants | train travel | the weather | shopping | asking for directions | hobbies
  | emergencies
slot spanish: Yo soy cansado hoy porque trabajé mucho | Me gusta mucho las películas de terror
  | Ayer yo fui al mercado y compré tres manzana verdes | Mi hermana es más alta que yo pero menos vieja
  | Hace seis meses que estoy aprendo español
ask: Can you explain the difference between the Japanese particles 'ni' and 'de' with a few examples?
ask: How do people memorise kanji without flashcards taking over their life?
ask: Could you give me some Spanish phrases for ordering food that don't sound like a textbook?
ask: What's the best way to practise speaking if I don't know any native speakers?
ask: Can you correct my Spanish? '{spanish}.'
ask: Can you make me a short Japanese vocabulary list about {vocab}?
ask: Is it worth learning to read Japanese before a trip, or should I focus on phrases?
ask: What's the difference between the preterite and the imperfect in Spanish? I always mix them up.
ask: Could you write a short, simple story in Spanish using only the present tense?
ask: How many new words a day is realistic to learn and actually remember?
ask: Are language exchange apps worth it, or are they just dating apps in disguise?
ask: What's the best way to <learn|practise> Spanish numbers so I stop freezing at prices?
ask: Can you explain the Japanese <counting system|counters for objects> without making my head spin?
ask: How do I <say|ask> 'could I have the bill, please' politely in Japanese?
ctx: I've been trying to learn some Japanese before the trip, mostly survival phrases.
ctx: My Spanish is at the stage where I can read a menu but panic if anyone replies.
ctx: I listen to a Spanish podcast <on walks|while I cook>, though I only catch about half of it.
ctx: Learning two languages at once might have been ambitious.
ctx: I practise in my lunch break and while walking Biscuit, about fifteen minutes at a time.
ctx: I have a notebook of phrases that's growing faster than my memory.
ctx: {friend} is fluent in Spanish and kindly pretends not to notice my mistakes.
ctx: I understand far more when I read than when I listen.
ctx: I've been watching Spanish series with subtitles, which helps a bit.
ctx: Grammar explanations make my eyes glaze over, but examples stick.
fol: A few example sentences would help.
fol: Keep the explanation short; examples help me more than rules.
fol: Could you add a quick exercise at the end?

## tech
ask: My laptop fan runs constantly even when I'm just browsing. What could be causing it?
ask: How do I back up my photos properly? Right now they're on my phone and one old hard drive.
ask: Can you explain what a VPN actually does and whether I need one at home?
ask: How do I set up parental controls on a tablet for when my niece visits?
ask: What's the easiest way to share a calendar with Sam so we stop double-booking weekends?
ask: How do I free up space on my laptop without deleting anything important?
ask: Is it safe to click 'unsubscribe' in spam emails?
ask: Why does my printer say it's offline when it clearly isn't?
ask: How do I set up two-step verification on my email account?
ask: Which cloud storage service is best value for about {#200-500} GB?
ask: How do I stop Windows updates from restarting my laptop in the middle of work?
ask: My mum got a scam text pretending to be her bank. How do I report it and explain what to look for?
ask: What's the <safest|easiest> way to wipe an old laptop before giving it away?
ask: How do I stop <my email|my inbox> filling up with newsletters I never signed up for?
ask: Is it worth getting a <smart plug|smart thermostat> for a rented flat?
ctx: I'm the default IT support for my whole family, which is a lot of pressure.
ctx: My laptop is about five years old and starting to feel slow.
ctx: I'm reasonably techy, but networking stuff loses me quickly.
ctx: I tried turning it off and on again, obviously.
ctx: My dad rings me about tech at least once a week.
ctx: I'd rather fix this myself than pay someone.
ctx: The laptop is a hand-me-down from work, so it's not exactly fast.
ctx: Sam's solution to every tech problem is to buy a new thing.
ctx: I've already tried the first three suggestions on a forum.
ctx: I'm nervous about changing settings I don't understand.
fol: Step by step would be great.
fol: Is there a free way to do it?
fol: Plain English, please.

## coding
ask: What's the difference between a list and a dictionary in Python, and when would I use each?
ask: Can you explain what a virtual environment is and why every tutorial tells me to make one?
ask: How do I read a CSV file in Python and add up one column?
ask: My Excel VLOOKUP keeps returning #N/A even though the value is definitely there. What's going on?
ask: Could you explain what an API is using a restaurant analogy or similar?
ask: What's a good small Python project that would actually be useful day to day?
ask: How do I write a Google Sheets formula that counts rows marked 'done' with a date in the last month?
ask: Can you explain recursion without using the Fibonacci example?
ask: What's the difference between 'is' and '==' in Python?
ask: How do I make a pivot table that shows totals per month from a list of dates?
ask: Is learning SQL worth it for a product manager?
ask: What's the difference between a <for loop|while loop> and when would I use each?
ask: How do I <split|separate> first and last names into two columns in a spreadsheet?
ask: Can you explain what <Git|version control> is for, in simple terms?
ctx: I'm not a developer, but I want to understand enough to <talk to our engineers properly|follow the
  conversation in stand-up>.
ctx: I do most of my learning in the evenings, so I'm often a bit <tired and slow|frazzled>.
ctx: I wrote a little script {time_ago} that renames my photos by date and felt like a genius.
ctx: Spreadsheets run my <life|week> at work, for better or worse.
ctx: I'm learning Python partly for work and partly <because I'm curious|out of stubbornness>.
ctx: Our engineers are patient with me, but I'd like to stop asking them <basic things|beginner questions>.
ctx: I learn best from <small, concrete examples|doing rather than reading>.
ctx: I keep a little folder of scripts that solve <tiny annoyances|small chores>.
ctx: {friend} works in data science and makes it look effortless, which is motivating and annoying.
ctx: I understand the syntax but <struggle to know where to start|freeze> on a blank page.
fol: Please explain <each line|what each bit does> if you write code.
fol: Keep any example short.
fol: And what's the most common <mistake|beginner mistake> with this?

## work
slot workmsg: As I already said in the last meeting, the timeline depends on design sign-off, which we still don't
  have. | I'm not sure why this is coming up again, we agreed the scope two weeks ago.
  | Just following up again on my previous three emails about the test data.
  | Per my last message, we can't ship this without legal approval.
ask: Can you help me write an agenda for a kickoff meeting with a new group of stakeholders?
ask: How do I say no to a request from another team without damaging the relationship?
ask: What's a good format for a weekly status update that people will actually read?
ask: Could you help me make this message sound less defensive? '{workmsg}'
ask: How do I prioritise when everything is marked urgent?
ask: What are good questions to ask in user interviews about a booking flow?
ask: Can you explain the difference between OKRs and KPIs in a way I can repeat to my team?
ask: How do I run a workshop where the quiet people actually contribute?
ask: What are the main arguments for and against shipping a feature behind a feature flag?
ask: What's a polite way to end a meeting that's going round in circles?
ask: How should I document a decision so people six months from now understand why we made it?
ask: Help me write a short thank-you note to a colleague who covered for me while I was off.
ask: How do I <push back|say no> on an unrealistic deadline without sounding negative?
ask: What's a good structure for a <one-page|short> product brief?
ask: How do I keep a <long|cross-team> project moving when nobody owns the decision?
ctx: We build scheduling software for clinics, so everything has a compliance angle.
ctx: This quarter is <packed|rammed> and the roadmap keeps shifting under our feet.
ctx: One of our stakeholders replies to every email with a question that's <already answered in the email|
  in the first line>.
ctx: I've had {#5-8} hours of meetings today and my brain is soup.
ctx: Our engineers are great, but we're stretched across <too many projects|three roadmaps>.
ctx: There's a big review with leadership on {weekday} and I want to be prepared.
ctx: We've got a new stakeholder who likes everything <in slides|as a one-pager>.
ctx: The team is spread across two offices, which makes quick decisions harder.
ctx: I'm trying to protect more of my calendar for <actual thinking|deep work>.
ctx: Product decisions here tend to get made in the corridor, which I'm trying to change.
ctx: Half my week is spent translating between engineering and sales.
fol: Keep the tone friendly but firm.
fol: Ideally something I can reuse as a template.
fol: Short enough to read on a <phone|single screen>, please.

## career
ask: Can you look at how I describe my role on LinkedIn and make it sound less like a job description?
ask: How do I negotiate salary when the company says the band is fixed?
ask: What are the signs that it's time to leave a job, rather than just a bad month?
ask: Could you help me prepare for a conversation about getting more strategic work?
ask: How do I find a mentor outside my company?
ask: Is an MBA worth it for someone in product, or is that outdated thinking?
ask: What are good ways to build data analysis skills alongside my day job?
ask: How do I write a good reference for a former colleague?
ask: What should I say when someone asks where I see myself in five years?
ask: How do I avoid burning out when I'm the person everyone comes to?
ask: How do I <ask for|get> feedback that's actually useful, not just 'you're doing great'?
ask: What makes a good <portfolio|case study> for a product manager?
ask: Is it a bad idea to <move jobs|switch companies> after less than two years?
ctx: I've been in product for about six years, after starting out in customer support.
ctx: A recruiter got in touch {time_ago} and it got me thinking about my options.
ctx: I enjoy my job most days, but I'm not sure I'm growing any more.
ctx: {friend} just switched careers entirely and it's made me restless.
ctx: I'm good at my job but terrible at talking about it.
ctx: I've never really had a proper mentor.
ctx: My performance review is coming up and I'd like to be ready.
ctx: I sometimes wonder if I should have gone into research instead.
ctx: People keep asking me to take on more without anything else changing.
ctx: I'd like more influence over what we build, not just how.
fol: Be honest, even if it's not what I want to hear.
fol: Concrete examples would help me most.
fol: What would a good first step look like?

## transport
slot warning: tyre pressure | engine management | oil pressure | battery | ABS
ask: What does it mean when the {warning} warning light comes on?
ask: How do I check tyre tread depth properly?
ask: Any tips for driving on narrow country lanes when someone comes the other way?
ask: What's the cheapest way to get from Bristol to London for a day trip?
ask: How do clean air zones work, and would I need to pay in Bristol?
ask: Is it worth joining a breakdown service, or does insurance usually cover it?
ask: How do I prepare for a long motorway drive in winter?
ask: What's the etiquette when someone is sitting in my reserved seat on the train?
ask: Can you explain how railcards work and whether any would apply to me?
ask: How do I find a trustworthy garage for <a service|an MOT>?
ask: What's the <best|least stressful> way to get to Heathrow from Bristol for an early flight?
ask: Is it worth <getting|buying> a cheap folding bike for mixed train and cycle trips?
ask: How do I <plan|break up> a long drive with a dog in the car?
ctx: I do a fair amount of driving to see my parents in Cheltenham.
ctx: Public transport here is <okay|fine> in the city centre and <patchy|hopeless> everywhere else.
ctx: I'm a confident driver on motorways but <terrible|hopeless> at parallel parking.
ctx: We try not to drive in the city unless we really have to.
ctx: Train prices to London are eye-watering unless you book weeks ahead.
ctx: I don't mind a long journey as long as I can <read|nap|listen to something>.
ctx: Parking near us is a nightmare, especially on match days.
ctx: I get travel sick on <buses|coaches> if I try to read.
ctx: {friend} is learning to drive and keeps asking me questions I can't answer.
fol: Roughly how much should it cost?
fol: And is there anything I should check before I go?
fol: Is there a cheaper option I'm missing?

## photography
slot subject: Biscuit running | fireworks | the moon | indoor gigs | candlelit dinners | birds in the garden
  | my knitting projects | rainy streets at night
ask: Can you explain the exposure triangle in simple terms?
ask: How do I photograph {subject} without everything coming out blurry?
ask: What's the rule of thirds, and when should I break it?
ask: How do I edit photos so they look natural rather than over-processed?
ask: What's a good way to back up and organise RAW files?
ask: Should I shoot RAW or JPEG if I'm lazy about editing?
ask: Can you set me a week-long photography challenge to get me out of a rut?
ask: How do I take better photos of food in a dark kitchen?
ask: What's the best way to print photos at home so they don't fade?
ask: Which focal lengths are best for portraits?
ask: How do I <get|take> sharp photos in low light without a tripod?
ask: What's a good way to <practise|improve> composition on a daily walk?
ask: Is a <prime lens|zoom lens> better for someone who mostly shoots streets and people?
ctx: I've been taking my camera on weekend walks to practise.
ctx: I joined a local photo walk group {time_ago} and felt very out of my depth.
ctx: Most of my photos end up slightly underexposed and I'm not sure why.
ctx: I shot everything on my phone for years and I'm relearning the basics.
ctx: I love photographing <ordinary streets|everyday scenes> more than big landscapes.
ctx: Biscuit is my most <frequent|patient-looking> and least cooperative model.
ctx: Editing is the bit I always <put off|rush>.
ctx: {friend} has a great eye and makes it look effortless.
ctx: I've got a hard drive full of photos I've never looked at again.
fol: Assume I understand the basics but not much beyond that.
fol: <Settings|A starting point for settings> would be helpful.
fol: Examples of <what good looks like|good shots> would help.

## games
slot game: Catan | Ticket to Ride | Wingspan | Carcassonne | Azul | Pandemic | Dominion | 7 Wonders | Cascadia
ask: Can you recommend a two-player board game for Sam and me that isn't <chess or Scrabble|too long|too mean>?
ask: What's a good <cosy|low-stakes> video game to play after a <stressful|long> day?
ask: Could you explain the basic strategy for {game}?
ask: How do I teach {game} to people who don't usually play board games?
ask: Can you recommend a story-heavy video game I could finish in <under twenty hours|a couple of weekends>?
ask: What's the difference between a roguelike and a roguelite?
ask: Could you suggest a <party game|quiz format> that works over a video call?
ask: How do I stop being a sore loser at games? Asking for me, unfortunately.
ask: Is it worth buying a Steam Deck, or should I just play on my laptop?
ask: What's a good <party game|social game> for a group that includes non-gamers?
ask: Can you suggest a <solo|single-player> board game for quiet evenings?
ask: What's a relaxing <puzzle game|building game> that won't eat my whole weekend?
ctx: Sam and I play a lot of two-player games on weeknights.
ctx: I bought {game} {time_ago} and we've only played it once because the rules are intimidating.
ctx: I'm not much of a gamer, but I get <hooked on|obsessed with> the right kind of game.
ctx: We've got a <shelf|cupboard> of games we've played exactly once.
ctx: {friend} is very competitive, so cooperative games keep the peace.
ctx: I mostly play on the sofa after dinner, in <short bursts|half-hour chunks>.
ctx: I love games with a good story and can't stand grinding.
ctx: Sam's family are serious about games, which is intimidating at <Christmas|family gatherings>.
ctx: My attention span for rulebooks is about <four pages|one page|a paragraph>.
fol: Under about £40, ideally.
fol: Something that plays in under an hour would be ideal.
fol: Bonus if it's easy to teach.

## crafts
slot craft: knitting | crochet | embroidery | woodworking | pottery | sewing | lino printing
ask: What's the easiest first {craft} project for a total beginner?
ask: How do I read a knitting pattern? All the abbreviations make my head spin.
ask: What's a good finish for a wooden chopping board so it's food safe?
ask: Can you explain gauge swatches and whether I really have to make one?
ask: How do I stop my embroidery fabric from puckering?
ask: What's a beginner-friendly sewing machine that won't break the bank?
ask: How do I sharpen chisels properly?
ask: Could you suggest a handmade gift I could make in <a weekend|a few evenings>?
ask: What's the difference between crochet and knitting in terms of what you can make?
ask: How do I store yarn so moths don't get to it?
ask: How do I <block|finish> a knitted piece so it lies flat?
ask: What's a good first <pottery|clay> project I can do without a wheel?
ask: How do I <choose|pick> the right needle size for a yarn I found at a charity shop?
ctx: I find making things with my hands really calming after a <screen-heavy week|day of meetings>.
ctx: I've got a small corner of the spare room set up as a <craft space|workshop, of sorts>.
ctx: My last {craft} project was ambitious and ended up as a very odd-shaped cushion.
ctx: My gran taught me to knit as a kid and I'm trying to remember <everything she showed me|her tricks>.
ctx: I've got a <drawer|basket> full of half-finished projects.
ctx: I'm more patient with my hands than <I am with anything else|with people, honestly>.
ctx: {friend} runs a little {craft} group on {weekday} evenings and I've started going.
ctx: I'd like to make more of my own <presents|Christmas gifts> this year.
ctx: My tools are basic and mostly secondhand.
fol: Cheap materials preferred while I'm learning.
fol: Step by step, please.
fol: Photos or diagrams you'd search for would help too.

## drinks
ask: What's the difference between green, white and oolong tea, and how should each be brewed?
ask: How do I make cold brew at home without special equipment?
ask: Can you suggest a non-alcoholic cocktail for a dinner party?
ask: Why does my coffee taste bitter even though I'm using good beans?
ask: What's a good loose-leaf tea for someone who only drinks builder's tea?
ask: How do I descale a kettle without it tasting of vinegar afterwards?
ask: Is a milk frother worth buying, or can I froth milk in a jar?
ask: What's the deal with matcha? Is it actually good for you?
ask: Could you recommend some evening herbal teas that don't taste like hay?
ask: How do I make ginger beer from scratch?
ask: What's a good <warming|spiced> drink for a winter evening that isn't hot chocolate?
ask: How do I make a <proper|decent> pot of loose-leaf tea without special kit?
ask: What's the <simplest|easiest> way to make oat milk at home?
ctx: I'm a bit of a <tea snob|tea nerd>, or at least I'm trying to become one.
ctx: We got a fancy coffee machine as a <present|wedding present, years ago,> and I'm slightly scared of it.
ctx: I'm trying to cut down on sugary drinks.
ctx: Counter space is at a premium in our kitchen, so gadgets have to earn their place.
ctx: I have a tea cupboard that's getting out of hand.
ctx: {friend} brought back some fancy tea from a trip and I don't want to waste it.
ctx: I'm hosting a few friends on {weekday} and not everyone drinks.
ctx: I like trying new things but I always go back to a plain cup of tea.
ctx: Afternoons are when I crave something warm and a bit special.
fol: Cheap kit please, I don't want another gadget on the counter.
fol: Quantities for one or two people, please.
fol: What would you personally go for?

## community
slot cause: local hospice | community garden | animal rescue | youth football club | refugee drop-in centre
ask: How do I report a broken streetlight to the council?
ask: Can you help me write a friendly note to the neighbours about bins being left on the pavement?
ask: What are good ways to volunteer locally if I only have a few hours a month?
ask: How do I organise a litter pick on our street?
ask: Can you help me draft a response to a planning application I'm worried about?
ask: What's the best way to set up a street WhatsApp group without it getting chaotic?
ask: How would I start a little free library outside our building?
ask: What should I know before becoming a trustee of a small charity?
ask: How do community fridges work, and how would I find one near me?
ask: Could you help me write a short appeal for donations for the {cause}?
ask: How do I <start|set up> a tool-sharing scheme on our street?
ask: What's a good way to welcome <new neighbours|someone who's just moved in> without being intrusive?
ask: How do I find out what <volunteering|local groups> exist in my area?
ctx: Our street has a lovely mix of people, but we <barely talk to each other|mostly just nod>.
ctx: I want to do something useful with my <weekends|spare time> that isn't just errands.
ctx: There's a new development planned at the end of the road and everyone's worried about <parking|traffic>.
ctx: I've lived here three years and only know a handful of neighbours by name.
ctx: Our street WhatsApp is mostly lost cats and complaints about parking.
ctx: I'd like to be the kind of neighbour who actually shows up.
ctx: The local community centre has had its funding cut <again|for the third year running>.
ctx: {friend} runs the residents' association and is always looking for help.
ctx: An older neighbour on our street lives alone and I keep meaning to check in on him.
fol: Keep it warm and non-preachy.
fol: Something that doesn't need a <big|huge> time commitment, ideally.
fol: Where would you start?

## collecting
slot collectible: stamp | vinyl record | coin | enamel pin | first edition | cigarette card | vintage map
ask: How do I find out what an old {collectible} might be worth?
ask: What's the best way to store vinyl records so they don't warp?
ask: Are there good <apps|spreadsheet templates> for cataloguing a collection?
ask: How do I spot a reproduction {collectible} versus an original?
ask: Are collectors' fairs worth going to, or is everything cheaper online?
ask: How do I clean old vinyl without damaging it?
ask: What's the etiquette for haggling at a car boot sale?
ask: How do I display small collections on a wall without it looking cluttered?
ask: How do I <date|identify> an old {collectible} from its markings?
ask: What's a sensible way to <insure|keep a record of> a small collection?
ask: Where's a good place to <sell|swap> duplicates from a collection?
ctx: I've always been a bit of a magpie with <small paper things|old ephemera>.
ctx: I went to a car boot sale {time_ago} and came home with things I definitely didn't need.
ctx: My grandad left me a box of old {collectible}s and I've no idea what they are.
ctx: Sam says the collecting is getting out of hand. Sam is not wrong.
ctx: My collection lives in a <shoebox|set of old biscuit tins|battered suitcase> under the bed.
ctx: I'm drawn to anything with <handwriting|a stamp and a postmark> on it.
ctx: I love the stories behind old things more than <their value|what they're worth>.
ctx: {friend} collects too and we've started going to fairs together.
ctx: I set a budget for <fairs|car boots> and always break it.
fol: I'm not trying to get rich, just curious.
fol: Any good books or websites on this?
fol: Cheap options would be ideal.

## writing
slot issue: a leak under the kitchen sink | mould on the bathroom ceiling | the broken extractor fan
  | the front door lock sticking | the deposit protection details we never received
slot company: my energy supplier | a delivery company | the train operator | an online clothes shop
  | my mobile network
slot complaint: being billed twice | a parcel marked delivered that never arrived
  | a three-hour delay with no information | a refund that's six weeks late | being on hold for an hour
ask: Can you help me write an email to our landlord about {issue}? I want it polite but clear.
ask: Could you help me write a complaint to {company} about {complaint}?
ask: How do I reply to a wedding invitation when I can't go, without sounding cold?
ask: Can you help me write a short bio for a volunteer newsletter?
ask: Could you make this note to my neighbour sound friendlier? 'Your dog has been barking for hours every day and
  it needs to stop.'
ask: Can you help me write a thank-you card to the nurses who looked after my grandad?
ask: How do I word an out-of-office so people don't email me anyway?
ask: Help me write a text to a friend apologising for missing their birthday drinks.
ask: Could you proofread this sentence for a cover letter? 'I am a passionate and driven product professional with
  six years experience delivering impactful features in regulated environments.'
ask: Can you help me write a <leaving card|farewell message> for a colleague I didn't know very well?
ask: Could you help me <shorten|tighten up> an email that has become far too long?
ask: How do I politely <chase|follow up> someone who hasn't replied in two weeks?
ctx: I tend to write emails that are either too blunt or far too apologetic.
ctx: I've drafted this <three|four> times and it still sounds wrong.
ctx: Formal writing has never been my strong point.
ctx: I always write something long and then cut it in half.
ctx: I want to sound like myself, not like a <form letter|robot|solicitor>.
ctx: This has been sitting in my drafts for <three days|a week|far too long>.
ctx: The person I'm writing to is <lovely but easily offended|quite senior and quite prickly>.
ctx: I find it much easier to edit than to start from <nothing|a blank page>.
fol: Keep it under 150 words.
fol: Not too grovelling, please.
fol: Maybe give me two versions, one warmer and one more formal?

## curiosity 1.2
ask: Why is the sky blue, but sunsets are orange?
ask: How do noise-cancelling headphones actually work?
ask: Can you explain how vaccines train the immune system, simply?
ask: Why do onions make you cry, and does the wet tea towel trick work?
ask: How does a heat pump heat a house when it's cold outside?
ask: What's the difference between weather and climate, in a sentence or two?
ask: Why do cats purr? Is it always because they're happy?
ask: How do tides work, and why are there two a day?
ask: What actually happens when you crack your knuckles?
ask: Why does bread go stale, and why does toasting it help?
ask: How do birds know where to migrate?
ask: Can you explain inflation like I'm fifteen?
ask: Why do we get déjà vu?
ask: How do astronomers measure how far away stars are?
ask: Why does time seem to speed up as you get older?
ask: Why do some people think coriander tastes of soap?
ask: Why do <leaves change colour|trees drop their leaves> in autumn?
ask: How do <bees|ants> decide where to build a new nest?
ask: Why does <the moon look bigger|the sun look orange> near the horizon?
ask: How does a <fridge|microwave> actually work?
ctx: {friend} and I got into a debate about this at dinner and neither of us actually knew.
ctx: This popped into my head while I was <walking Biscuit|in the shower|washing up> this morning.
ctx: <My niece|Lily> asked me this and I realised I had no idea.
ctx: I've always wondered and never <bothered to look it up|got round to asking>.
ctx: I fell down a Wikipedia hole about this last night and came out more confused.
ctx: Sam claimed to know the answer and then got <very vague|suspiciously quiet> under questioning.
ctx: I half-remember learning this at school and <none of it stuck|it's all gone>.
ctx: This came up at a pub quiz and our team got it wrong.
ctx: I've been reading more popular science lately and now I'm curious about <everything|all sorts>.
ctx: I like knowing how everyday things work.
fol: The simple version first, then <a bit more detail|the nerdy bit> if it's interesting.
fol: An analogy would help.
fol: Is there a good <book|podcast> on it, if I want to go further?
"""

# Each section is one chain: pre (the predecessor's core), upd (the update's core), q (the question) and
# optional near lines (same narrow subject, fact not stated) that become hard distractors.
_CHAIN_TEXT = """
## collecting
pre: I spent the evening re-sleeving my postcards and it's weirdly meditative. By the way, I've added 17 new
  postcards to my collection since I started again in the spring, mostly seaside ones from the fifties. Do you
  know a good way to store them so the corners don't get bent?
upd: Went to the antiques fair at the racecourse this morning and came home with a little stack of old seaside
  cards. I just counted and that takes me to 25 new ones since I picked the hobby back up. Is it worth getting
  the older ones looked at by a dealer?
q: How many postcards have I added since I started collecting again?
near: What's the difference between a real photo postcard and a printed one, and how can I tell them apart?
near: Are there online communities where people swap postcards with strangers in other countries?
near: How do I get an old postcard out of a photo album without tearing the back? Someone used really strong glue.
near: Is the loft a bad place to keep postcards, or will the temperature swings damage them?

## running
pre: I'm currently training for a half marathon in the autumn and my long runs are 14 km at the moment. What
  should I be eating the night before those, and do I need gels at that distance?
upd: Bit of a change of plan: I've switched to a full marathon programme, so the Sunday long run is up to 24 km
  now. How do you pace something that long without falling apart in the last few kilometres?
q: How far are my long runs at the moment?
near: Is it bad to run on consecutive days if my calves are still tight from the day before?
near: What's a decent warm-up before an easy run? I usually just start jogging and hope for the best.
near: Should I really be replacing running shoes every 600 km, or is that just marketing?
near: Any tips for running in the dark in winter without feeling unsafe?

## family
pre: Could you help me plan a couple of days out in Bristol for a visitor who loves food markets and hates
  queues? My sister Hannah is coming down from Leeds in June and I want to show her more than the suspension
  bridge.
upd: Hannah just messaged: work means she can't get away in early summer, so she's coming to stay in August
  instead. Does that change what you'd suggest, given the harbour festival might be on?
q: When is my sister Hannah coming to visit?
near: How do I turn a cluttered spare room into somewhere a guest would actually want to sleep?
near: Can you suggest some easy dinners for when family are staying and everyone eats at different times?
near: Any ideas for a rainy-day activity in Bristol for two adults who've already done all the museums?

## language
pre: I've signed up for an evening Spanish class on Tuesdays at the adult learning centre, starting at beginner
  level. Could you give me a few phrases to practise before the first session so I'm not completely lost?
upd: They've moved my Spanish course to Thursday evenings because the other group was too small. Anyway, can you
  explain when to use 'ser' and when to use 'estar'? The teacher rushed through it.
q: Which evening is my Spanish class?
near: What's the best way to practise Spanish listening if I only have twenty minutes a day?
near: Is it better to learn Latin American Spanish or Castilian if I'm not sure where I'll travel?
near: Can you quiz me on the present tense of regular -ar verbs?

## dog
pre: Biscuit has been begging at the table a lot lately. At the moment he gets 2 cups of kibble a day, split
  between breakfast and dinner. Is that a normal amount for a 13 kg spaniel cross, or is he just being dramatic?
upd: Had Biscuit weighed at the vet and she says he's carrying a bit too much, so we've cut his dried food down to
  one and a half cups daily. Any ideas for low-calorie treats so he doesn't feel punished?
q: How much kibble does Biscuit get per day now?
near: Why does my dog eat grass on every single walk? Should I be worried?
near: What's the best way to clean a spaniel's ears without him wriggling off?
near: Are puzzle feeders actually good for dogs, or just a gimmick?

## finances
pre: I'm trying to get a clearer picture of our monthly outgoings. Rent is £1,150 a month for the flat, which is
  the big one, then council tax and bills on top. Could you help me lay out a simple spreadsheet for tracking it?
upd: Got the renewal letter from the letting agent today, and they're putting the rent up to £1,240 from next
  month. Is that a reasonable increase, and is there any point trying to negotiate?
q: How much is our rent per month now?
near: How does council tax banding work, and can I challenge it if our flat seems to be in the wrong band?
near: Is it worth switching energy supplier right now, or should we stay on the variable tariff?
near: What's a sensible emergency fund for a couple who rent?

## finances
pre: Sam and I have started saving properly for a house deposit; we're aiming for £30k by the end of 2027. What
  kind of savings account makes sense for money we won't touch for a couple of years?
upd: We looked at house prices in the areas we actually like and had a bit of a reality check, so the deposit
  goal is now £40k. Does a Lifetime ISA still make sense with that target?
q: What's our house deposit savings target?
near: Can you explain how the Lifetime ISA bonus works and what the penalty is if you withdraw early?
near: What costs do first-time buyers forget about besides the deposit?

## books
pre: I set myself a goal of 24 books this year, which is two a month, and I'm roughly on track. Can you recommend
  a few short novels under 250 pages to keep the momentum going?
upd: I'm ahead of schedule with my reading, so I've bumped the target for the year up to 30 books. Could you
  suggest some nonfiction that reads like a novel?
q: How many books am I aiming to read this year?
near: Are there any good apps for tracking books besides Goodreads?
near: Do audiobooks count as reading? My friend insists they don't.

## books
pre: I'm about halfway through Middlemarch and really enjoying Dorothea's storyline, but the chapters about the
  railway and the election are dragging. Is it worth pushing through, or is it fine to skim those bits?
upd: Finally finished Middlemarch last night! I've started The Remains of the Day now and Stevens is such an odd,
  sad narrator. Is there anything I should know about the historical background?
q: What book am I reading at the moment?

## work
pre: Work is eating my brain. I'm leading the migration of our billing system onto the new payments platform, and
  the deadline is the end of March. Could you help me write a one-page risk summary for leadership?
upd: Good news for my stress levels: the billing move has been given more breathing room and go-live is now
  mid-May. How should I re-plan the remaining milestones so we don't just waste the extra time?
q: When is the deadline for the billing migration?
near: How do you run a good pre-mortem with a team that's already a bit burnt out?
near: Can you help me turn a messy list of tasks into a RACI chart?
near: What's the best way to tell stakeholders about a scope cut without it sounding like failure?

## work
pre: My manager Priya has asked me to put together a proposal for a new onboarding flow. Can you suggest a
  structure for the doc? She likes things short with a clear recommendation up front.
upd: Big reshuffle at work: Priya has moved to another department and Marcus is my line manager now. Any advice
  for the first one-to-one with a new boss so I come across well?
q: Who is my manager now?
near: How do I give upward feedback without it sounding like a complaint?
near: What should I bring to a mid-year review to make the conversation useful?

## transport
pre: I cycle to work most days, it's about 25 minutes each way along the river path. What should I carry for
  basic roadside repairs without needing a huge bag?
upd: Our office has moved out to the new building near Bath, so my cycling days are over, work-wise. I'm getting
  the train now, roughly 40 minutes door to door. Any tips for making a train commute feel productive?
q: How do I get to work these days, and how long does it take?

## transport
pre: My car is a 2014 Ford Fiesta with about 90,000 miles on it. It's making a whining noise when I turn the
  steering wheel at low speed. Is that something urgent?
upd: I finally let go of the old Fiesta and bought a second-hand Kia Niro EV. How do I work out what home charger
  to get, and do I need to tell my insurer anything specific?
q: What car do I drive now?

## gardening
pre: I've got four tomato plants in grow bags on the patio this year. Some of the lower leaves are going yellow
  with brown spots. Is that blight, or are they just thirsty?
upd: I moved the tomatoes into the new raised bed and squeezed in three more seedlings a neighbour gave me, so
  that's seven plants now. How far apart should they be, and should I pinch out the side shoots on all of them?
q: How many tomato plants do I have?
near: When is it too late to sow courgettes outdoors?
near: What's the best organic way to deal with aphids on broad beans?
near: Should I water the vegetable patch in the morning or the evening?

## gardening
pre: I put my name down for an allotment with the council and I'm number 34 on the waiting list, so probably a
  long wait. In the meantime, what can I grow in containers to practise?
upd: Got an email from the allotment association: lots of people have dropped off and I'm now ninth in the queue!
  What should I be doing so I'm ready if a plot comes up over winter?
q: What position am I on the allotment waiting list?
near: What's a realistic amount of time per week to keep a half-size allotment plot going?
near: Which vegetables give the most food for the least effort on an allotment?

## houseplants
pre: My monstera lives in the living room next to the north-facing window and it's been putting out smaller
  leaves without any splits. Is it not getting enough light?
upd: Took your advice and moved the monstera into the bedroom, where it gets morning sun from the east window.
  How long before I'd see the new leaves change?
q: Where is my monstera now?
near: How do I know when a houseplant needs repotting?
near: Is it normal for a plant to drip water from the tips of its leaves in the morning?
near: What's the best way to get rid of fungus gnats in houseplant soil?

## gym
pre: I go to the gym on Monday, Wednesday and Friday mornings before work, usually seven till eight. Can you help
  me split a routine across those three days so I'm not doing the same thing each time?
upd: Early starts weren't sustainable with the new commute, so I've moved my gym sessions to Tuesday, Thursday
  and Saturday evenings. Would a push/pull/legs split still make sense with that timetable?
q: Which days do I go to the gym?
near: How long should I rest between sets if I'm training for strength rather than size?
near: Is a lifting belt worth getting, or is it better to build core strength without one?

## gym
pre: Quick gym question. My deadlift one-rep max is 100 kg at the moment, and I'm not sure how to programme
  percentages for a six-week block. Could you sketch something out?
upd: Hit a new personal best on deadlifts today, pulled 115 kg cleanly! What's a sensible next target, and how
  should I adjust my working sets?
q: What's my current deadlift max?
near: My lower back feels tight after Romanian deadlifts. Is my form off, or is that normal?
near: Should I use a mixed grip or a hook grip for heavier pulls?

## movement
pre: I've been swimming on Sunday mornings at the leisure centre, doing 30 lengths of the 25 m pool. How could I
  make those sessions more structured without joining a club?
upd: My Sunday swim has crept up to 50 lengths now, mostly front crawl. Should I be worried that my shoulders ache
  a bit afterwards?
q: How many lengths do I swim on Sundays now?
near: How do I stop my goggles fogging up halfway through a swim?
near: Is bilateral breathing actually worth learning as an adult?

## cat
pre: Miso has been diagnosed with an overactive thyroid and she's on tablets twice a day. Any tricks for pilling a
  cat who can detect medication hidden in anything?
upd: Miso's blood results came back much better, so the vet has reduced her thyroid pills to a single dose each
  day. Does it matter whether that's morning or evening?
q: How often does Miso take her thyroid medication now?
near: Why does my cat knead blankets and then bite them?
near: Is it normal for an older cat to start yowling at night?

## health
pre: Hay fever is brutal this year. The GP suggested 10 mg of cetirizine daily and it helps a bit, but it makes me
  sleepy at work. Is there anything I can do alongside it?
upd: The drowsiness got too much, so the pharmacist suggested switching and I'm on fexofenadine now instead. Is it
  okay to take it with my morning coffee?
q: Which antihistamine am I taking now?
near: Do saline nasal rinses actually help with hay fever?
near: What is the pollen forecast actually measuring?

## health
pre: At my last health check my blood pressure came out at 142/90, which the nurse said is borderline. What
  lifestyle changes have the strongest evidence behind them?
upd: Had my blood pressure taken again at the pharmacy and it was 128/82 this time. Is that a real improvement, or
  could it just be a calmer day?
q: What was my most recent blood pressure reading?
near: Are home blood pressure monitors accurate, and which arm should I use?
near: How much salt is too much in a day, roughly?

## wellbeing
pre: I've been going to bed around half twelve most nights and then dragging myself up at seven. Can you help me
  work out a wind-down routine that doesn't involve giving up my phone completely?
upd: Small victory: I've managed to shift my bedtime to 11pm for the past three weeks. Anything I can do to stop
  waking up at 4am, though?
q: What time do I usually go to bed now?
near: Does magnesium actually help with sleep, or is it mostly placebo?
near: Is it better to nap for twenty minutes or not at all?

## drinks
pre: I drink about four coffees a day, mostly to get through afternoon meetings. Is that too much, and what are
  some decent alternatives for the 3pm slump?
upd: I've weaned myself down to just one coffee a day, first thing in the morning, and the headaches have finally
  stopped. What could I drink in the afternoon that still feels like a treat?
q: How many coffees do I drink a day now?
near: What's the difference between a flat white and a cortado?
near: Is decaf actually completely caffeine-free?

## cooking
pre: I'm vegetarian but eat fish now and then, mostly when we're out. Could you suggest some high-protein lunches
  that travel well to the office?
upd: I've gone fully vegan since the new year, so no fish or dairy any more. Which nutrients should I keep an eye
  on, and do I need to supplement B12?
q: What diet do I follow now?
near: Is tofu better pressed, or can I skip that step?
near: What's a good way to get more iron without eating red meat?

## tech
pre: My iPhone 12 battery is down to about 78% health and barely lasts until mid-afternoon. Is a battery
  replacement worth it, or should I just upgrade?
upd: I jumped ship to Android in the end and got a Pixel 8. How do I move my WhatsApp history across from the old
  phone?
q: What phone am I using now?
near: How do I stop my phone showing message previews on the lock screen?
near: Is it safe to use public charging points at airports?

## tech
pre: Our broadband is BT on the 67 Mbps package and video calls keep freezing in the evenings. Is that likely to
  be the line or my old router?
upd: We've switched to a full-fibre provider and the package is 500 Mbps now. Do I need to change anything on the
  router side to actually get that speed over Wi-Fi?
q: What broadband speed do we have now?
near: Where's the best place in a flat to put a Wi-Fi router?
near: What's the difference between a mesh system and a Wi-Fi extender?

## home
pre: We've ordered a new sofa, a three-seater in dark green velvet, and I'm already worried about Biscuit's claws.
  Are there throws that actually stay put?
upd: Cancelled the velvet one within the cooling-off period and went for a rust-coloured corduroy sofa instead,
  which should hide dog hair better. How do you clean cord upholstery?
q: What sofa have we ordered?
near: How do I get dog hair off upholstery without a special vacuum attachment?
near: What size rug works under a sofa in a small living room?

## home
pre: The landlord has finally said we can repaint, and I've decided on sage green for the kitchen to warm it up a
  bit. Do I need a special kitchen paint, and how do I deal with the greasy patch above the hob?
upd: Changed my mind on the kitchen colour after seeing samples in daylight; the green looked murky, so we're
  going for a warm off-white instead. Should the ceiling be the same shade or brilliant white?
q: What colour am I painting the kitchen?
near: How do I get a clean line where the wall meets the ceiling without the masking tape bleeding?
near: Is it worth painting kitchen cabinet doors, or will they just chip?

## diy
pre: Our boiler is making a kettling noise when the heating comes on. The landlord has booked a service for 14
  October, but is it safe to keep using it until then?
upd: The engineer had to rearrange, so the boiler service is now on 3 November. Is there anything I can check
  myself in the meantime, like the pressure gauge?
q: When is the boiler service booked?
near: How do I bleed a radiator without getting water everywhere?
near: Is it cheaper to leave the heating on low all day or heat the flat in bursts?

## friends
pre: I'm a bridesmaid at my friend Jess's wedding in Lisbon this September and I need to sort flights and a hotel.
  Which area of the city is nice to stay in without being too far from everything?
upd: Plot twist on Jess's wedding: the venue fell through and they've moved everything to Porto, same dates. Is
  it easy to get there from Bristol, or should I fly via London?
q: Where is Jess's wedding taking place?
near: What's a thoughtful gift for a bride from a bridesmaid that isn't jewellery?
near: Can you help me write a short toast for a hen do?

## family
pre: My niece Lily turns seven in March and she's completely obsessed with dinosaurs right now. What are some
  good presents that aren't just another plastic T. rex?
upd: Update from Hannah: Lily has moved on from prehistoric creatures and it's all planets and astronauts now.
  Could you suggest a few gifts for a kid who wants to go to space?
q: What is my niece Lily into at the moment?
near: What are some good chapter books for a confident six or seven year old reader?
near: Any ideas for a fun video call activity with a young kid who gets bored quickly?

## family
pre: My parents' 40th wedding anniversary is coming up and my brother and I are organising a dinner for about 20
  guests. Could you help me draft an invitation that isn't too formal?
upd: The anniversary guest list has ballooned because Mum keeps remembering old friends; we're at 35 people now.
  Do we need to switch from a restaurant to hiring a room somewhere?
q: How many guests are coming to my parents' anniversary dinner?
near: What's a traditional gift for a ruby wedding anniversary?
near: How do you put together a slideshow of old family photos without it dragging on?

## travel
pre: I've booked a trip to Japan for 10 days in April, flying into Tokyo. Is it realistic to fit in Kyoto and
  Osaka too, or would that be too rushed?
upd: I managed to get extra leave approved, so the Japan trip is two weeks now. With the additional days, would
  you add Hiroshima or somewhere more rural?
q: How long is my Japan trip?
near: Is the Japan Rail Pass still worth it after the price increase?
near: What's the etiquette around tipping and talking on trains in Japan?
near: How do I add a Suica card to my phone?

## travel
pre: For our summer holiday we're planning a week of camping in the Lake District. What should we pack if the
  forecast is the usual mix of sun and sideways rain?
upd: We've ditched the tent idea after one too many soggy weekends and booked a cottage in Snowdonia for the
  summer. Which walks would you recommend that aren't totally packed?
q: Where am I going for my summer holiday?

## travel
pre: Just noticed my passport expires in November next year. Do I need to renew it before the Japan trip, or is
  there a rule about months remaining?
upd: Renewed my passport online and the new one arrived surprisingly fast; it's valid until 2035 now. Do I need to
  update the details anywhere, like airline accounts?
q: When does my passport expire?

## music
pre: I've been teaching myself guitar from YouTube for a couple of months and I can play five chords now: G, C, D,
  E minor and A minor. What songs can I play with just those?
upd: Guitar progress report: I've finally nailed the barre F and I'm up to nine chords. What should I learn next,
  scales or more chords?
q: How many guitar chords can I play now?
near: How do I stop my fingertips hurting so much when I practise?
near: Is it worth learning to read tab, or should I learn standard notation?

## music
pre: I'm preparing for my Grade 3 piano exam and my scales fall apart under pressure. Can you suggest a practice
  routine for the last six weeks?
upd: I passed with a merit, and my teacher has already started me on the Grade 4 pieces. How do people approach
  sight-reading at that level?
q: Which piano grade am I working towards now?

## crafts
pre: I'm knitting a navy scarf for my dad's birthday in a simple rib pattern. How many stitches would I need for
  something about 20 cm wide in DK yarn?
upd: I frogged the scarf, it was curling horribly, and I'm making Dad a grey beanie instead. Can you explain how
  to decrease for the crown without leaving holes?
q: What am I knitting for my dad?
near: What's the difference between DK and aran yarn?
near: How do I fix a dropped stitch a few rows down?

## games
pre: Our board game night is every other Friday at Tom's flat, usually five or six of us. Can you recommend a
  game that works for six people and doesn't take four hours?
upd: We've moved games night to Sunday afternoons and it's at my place now, since Tom's flatmate complained about
  the noise. Any snacks that won't get grease on the cards?
q: When and where is our board game night now?
near: What's a good cooperative game for people who hate direct conflict?
near: Can you explain the rules of Codenames quickly so I can teach it?

## games
pre: I'm about 40 hours into Baldur's Gate 3 and just got to Act 2. Is it normal to feel this overwhelmed by the
  number of side quests?
upd: Finally finished Baldur's Gate and I've started Elden Ring, which is humbling, to put it mildly. Any tips for
  the first few hours so I stop dying to the first big knight?
q: Which video game am I playing at the moment?

## screen
pre: I've got a Cineworld Unlimited card, so I'm trying to actually use it. Which films out this month are worth
  seeing on a big screen?
upd: Cancelled the Cineworld card because I wasn't going enough, and got a Watershed membership instead since I
  prefer their programme. Anything good among the recent indie and foreign releases?
q: Which cinema membership do I have now?

## language
pre: My Duolingo Japanese streak is at 120 days, but I feel like I'm just tapping through without learning much.
  How should I supplement it?
upd: Just passed 200 days in a row on the Japanese course in the owl app! Should I start learning kanji properly
  now, or focus on speaking?
q: How long is my Duolingo Japanese streak?
near: What's the difference between hiragana and katakana, and why do both exist?
near: Can you explain when to use 'wa' versus 'ga' in Japanese?

## photography
pre: I shoot on a Fujifilm X-T3, mostly with a 35 mm lens, and I want to get better at street photography. Which
  settings would you start with?
upd: Treated myself and upgraded to the X-T5 body, kept the same lenses. Is the extra resolution going to make my
  handheld shots blurrier?
q: Which camera body do I use now?
near: How do you photograph strangers on the street without feeling creepy?
near: What's a good free alternative to Lightroom?

## outdoors
pre: My Saturday club ride is about 60 km with a cafe stop halfway, and I'm usually hanging off the back on the
  hills. How can I improve my climbing?
upd: I got moved up to the quicker group at the cycling club, so the Saturday route is 90 km now. What should I eat
  on the bike for something that long?
q: How long is my Saturday club ride now?
near: How often should I clean and lube my bike chain?
near: What tyre pressure should I run on 28 mm tyres?

## movement
pre: I've been bouldering for about a year and I'm stuck at V3. Most of the V4s at my wall are overhangs and I
  just peel off. Any drills?
upd: Sent my first V5 at the wall last night after weeks of projecting it! How do I avoid finger injuries now that
  the holds are getting smaller?
q: What grade am I climbing at now?

## movement
pre: I've signed up for a 200-hour yoga teacher training that starts in September, mostly weekends. How should I
  prepare physically and mentally beforehand?
upd: The teacher training has been pushed back to January because the studio is being renovated. Any books worth
  reading in the gap?
q: When does my yoga teacher training start?

## investing
pre: I currently put 5% of my salary into my workplace pension and my employer matches it. Is that enough at my
  age, or should I be doing more?
upd: I've raised my pension contribution to 8% after doing the maths on salary sacrifice. Does that change how
  much tax I pay?
q: What percentage of my salary goes into my pension now?

## investing
pre: I've set up a stocks and shares ISA with £300 a month going into a global index fund. Is it better to
  invest monthly or put in a lump sum?
upd: Got a small pay rise, so I've upped my monthly ISA payment to £450. Should I be rebalancing, or just leave it
  in the same fund?
q: How much do I put into my ISA each month?
near: What's the difference between accumulation and income units in a fund?
near: Can you explain what a fund's ongoing charge actually costs me over twenty years?

## finances
pre: Our grocery budget is £80 a week and we keep blowing through it. Can you help me plan a week of dinners that
  fits?
upd: Prices went up again and we've admitted defeat: the food shop budget is £95 a week now. What are some cheap
  staples to build meals around?
q: What's our weekly grocery budget?

## screen
pre: I'm paying for Netflix, Spotify and Disney+ and it's starting to add up. Which ones are easiest to pause and
  restart without losing anything?
upd: Did a subscription clear-out: Disney+ is gone and I've added YouTube Premium, so it's Netflix, Spotify and
  YouTube now. Is there a way to track renewal dates so I don't get caught out?
q: Which streaming subscriptions am I paying for?

## work
pre: I work from home on Mondays and Fridays and I'm struggling to keep those days focused. Any tips for a home
  office set up in the corner of a living room?
upd: New hybrid policy at work means Friday is my only remote day now. How do I make the office days less
  exhausting?
q: Which days do I work from home?

## work
pre: I'm giving a talk on accessible design at UX Bristol and I've been given a 20-minute slot. How many slides is
  sensible for that length?
upd: The organisers liked my abstract so much they've doubled my slot to 40 minutes. How do I expand the
  accessibility talk without it feeling padded?
q: How long is my conference talk slot?
near: How do you calm your nerves before public speaking?
near: What's a good way to end a talk other than 'any questions?'

## career
pre: I've got an interview next week for the senior product manager role on my team. Could you run through some
  likely questions and help me practise answers?
upd: I got the promotion! I'm officially a senior PM as of this month. How do I ask for the salary that should
  come with it?
q: What's my job title now?

## work
pre: My team is six people at the moment and our weekly planning meeting runs over every single time. How would
  you restructure it?
upd: We've hired two new engineers, so there are eight of us on the team now. What's a good onboarding plan for
  their first fortnight?
q: How many people are on my team?

## dog
pre: Biscuit's pet insurance is £28 a month, lifetime cover. Is it worth keeping, or should I just put that money
  into a savings pot for vet bills?
upd: The renewal came through and Biscuit's cover is going up to £36 monthly. Is shopping around for a dog his age
  likely to save anything?
q: How much is Biscuit's pet insurance per month?

## cat
pre: I've started fostering for a local cat rescue and I've got two kittens at the moment, about eight weeks old.
  How do I keep Miso from getting stressed with them around?
upd: The rescue asked if I could take another pair, so I'm looking after four foster kittens now. How do I
  socialise them all without getting overwhelmed?
q: How many foster kittens am I looking after?

## baking
pre: My sourdough starter is about a month old and I feed it every day at room temperature. It smells a bit like
  nail varnish sometimes. Is that normal?
upd: Feeding the starter daily was too much, so now it lives in the fridge and gets fed once a week. How long
  before baking should I take it out?
q: How often do I feed my sourdough starter?
near: Why is my sourdough loaf so dense in the middle?
near: What's the difference between strong bread flour and plain flour?

## community
pre: There's a street potluck on the 21st and I've said I'll bring a big mushroom risotto. How do I keep it from
  going gluey if it has to sit for an hour?
upd: Changed my potluck contribution: I'm making a spiced lentil shepherd's pie now because it holds better. Could
  you help me scale it up for about twenty people?
q: What am I bringing to the potluck?

## drinks
pre: I've started brewing kombucha and I leave the second ferment for three days with ginger. It's tasty but not
  very fizzy. What am I doing wrong?
upd: I've stretched the bottling stage of my kombucha to five days and the fizz is so much better. Is there a risk
  of bottles exploding, though?
q: How long do I leave the second ferment of my kombucha?

## home
pre: The thermostat is set to 19 degrees and the flat still feels cold in the evenings. Is that a draught issue,
  or should I just turn it up?
upd: We knocked the heating down to 18°C to save a bit on bills and honestly I can't tell the difference with a
  jumper on. Is there a point where it's too low for a flat with damp issues?
q: What temperature is our thermostat set to?

## finances
pre: I've just renewed my contents insurance and the cover is £25,000. I'm not sure that's enough once I add
  everything up. How do people estimate the value of their stuff?
upd: After listing everything room by room, I bumped my contents cover to £35,000; the camera gear alone was more
  than I thought. Do I need to list high-value items separately?
q: How much is my contents insurance cover?

## gardening
pre: I'm planning to turn the back strip of lawn into a wildflower patch. When should I sow, and do I need to strip
  the turf first?
upd: The landlord wasn't keen on us digging up the grass, so the wildflowers are going into big containers along
  the fence instead. Which mixes do well in pots?
q: Where am I growing the wildflowers?

## community
pre: I volunteer at the food bank every second Saturday morning, sorting donations. Is there anything useful I
  could suggest people donate that isn't pasta and beans?
upd: I've switched my food bank shift to Wednesday evenings since my weekends are busier now. Any tips for staying
  energised for a shift after work?
q: When do I volunteer at the food bank?

## running
pre: My parkrun PB is 27:40 and I'd love to get under 27 minutes before the end of the year. What sort of sessions
  would help?
upd: Ran 25:58 at parkrun this morning, a new best by a mile. Is sub-25 realistic, or should I be happy with this?
q: What's my parkrun personal best?

## health
pre: The dentist says I need two fillings on the same side. Should I get them done in one appointment, and how long
  will my mouth be numb?
upd: The X-ray showed the tooth was worse than they thought, so instead of the fillings I need a root canal. Is it
  as bad as everyone says?
q: What dental work do I need?

## health
pre: Had an eye test and my left eye is at -2.25 now, so I need new glasses. Are thinner lenses worth the money at
  that prescription?
upd: The optician rechecked because I was still getting headaches, and the left lens should actually be -2.75. Do
  I need to get the glasses remade?
q: What's the prescription for my left eye?

## family
pre: My brother Owen lives in Glasgow and we're trying to meet up halfway for a weekend. Where's a good place
  roughly between Glasgow and Bristol?
upd: Owen has taken a job in Toronto and moved out there last month. What's the best way to keep in touch across a
  five-hour time difference?
q: Where does my brother Owen live now?

## family
pre: Mum is retiring in December after thirty years as a teacher. Can you help me think of a meaningful retirement
  present?
upd: Mum has decided to stay on until the end of the school year, so she'll finish next July instead. Does it make
  more sense to plan the party for the summer then?
q: When is my mum retiring?

## friends
pre: I booked a table at Casa Romana for Sam's birthday, he loves Italian. Could you help me think of a gift to go
  with dinner?
upd: Moved Sam's birthday booking to a tapas place called El Puerto, since the Italian had a kitchen fire. What
  should I order for someone who loves seafood?
q: Where am I taking Sam for his birthday?
near: What are some good experience gifts for a partner who says he doesn't want anything?
near: How do I plan a surprise for someone who hates surprises?

## shopping
pre: I ordered a standing desk and it's meant to arrive on the 15th. How high should it be for someone who's
  1.70 m?
upd: The desk delivery has slipped to the 28th, annoyingly. In the meantime, is a laptop stand on a normal table
  okay for my neck?
q: When is my standing desk being delivered?

## shopping
pre: I read on a Kindle Paperwhite but I borrow a lot of ebooks from the library. Is there an easy way to get
  Libby books onto it?
upd: I sold the Kindle and bought a Kobo Libra, mostly for the library integration. How do I transfer my existing
  ebooks across?
q: Which e-reader do I use now?

## coding
pre: I'm working through an online Python course and I've just finished module 3 of 10, on loops. Could you give
  me a few practice problems at that level?
upd: Python update: I'm on module 7 now, the one about classes, and my brain hurts. Can you explain what 'self' is
  like I'm five?
q: How far am I through my Python course?
near: What's the difference between a list and a tuple in Python?
near: Why does my for loop skip items when I remove them from the list?

## tech
pre: I use LastPass for all my passwords but I keep reading about their breaches. Should I be worried?
upd: I've moved everything over to Bitwarden now. Do I need to change all my passwords as well, or just the
  important ones?
q: Which password manager do I use?

## outdoors
pre: I'm doing the Three Peaks challenge in July with four friends. How should we split the driving so nobody's
  exhausted?
upd: More people heard about our Three Peaks attempt and now there are seven of us going. Do we need a second car
  or a minibus?
q: How many of us are doing the Three Peaks challenge?

## games
pre: My online chess rating is around 1150 on Lichess and I keep blundering pieces in the middlegame. What's a good
  way to train that?
upd: My Lichess rating climbed to 1310 after a month of daily puzzles. Which opening should I learn properly now?
q: What's my online chess rating?

## books
pre: My book club meets on the first Thursday of the month at the Bell. It's my turn to pick next. Any suggestions
  for something that will spark a good argument?
upd: Book club has moved to the last Tuesday of each month and we meet in the library's community room now,
  because the pub got too loud. Can you suggest discussion questions for a short story collection?
q: When and where does my book club meet?

## crafts
pre: I'm building a bookshelf out of oak for the spare room, nothing fancy, just three shelves. What joints would
  you use for a beginner with basic tools?
upd: Oak turned out to be way over budget, so I'm using pine for the bookshelf instead. Will it sag under a full
  load of hardbacks?
q: What wood am I using for my bookshelf?

## drinks
pre: I'm doing Dry January this year and surprisingly enjoying it. Can you suggest some alcohol-free drinks that
  aren't just sugary juice?
upd: I felt so much better that I've decided to carry on without alcohol until the end of March. How do I handle
  the pub without everyone asking questions?
q: Until when am I staying off alcohol?

## movement
pre: I've joined a beginners' salsa class on Monday nights and I'm the worst in the room. Any tips for remembering
  the basic step?
upd: The teacher moved me up to the improvers' group! The turns are so much faster. How do I stop getting dizzy?
q: Which salsa class level am I in now?
"""


# ---------------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------------

_ALTERNATION = re.compile(r"<([^<>]*)>")
_SLOT = re.compile(r"\{(#?[\w-]+)\}")
_FIRST_WORD = re.compile(r"[A-Za-z]+")
_SENTENCE_END = (".", "!", "?", ":")


@dataclass
class _Section:
    name: str
    weight: float = 1.0
    fields: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Topic:
    name: str
    weight: float
    slots: dict[str, tuple[str, ...]]
    asks: tuple[str, ...]
    contexts: tuple[str, ...]
    follow_ups: tuple[str, ...]


@dataclass(frozen=True)
class _ChainSpec:
    topic: str
    predecessor: str
    update: str
    question: str
    near: tuple[str, ...]


def _sections(block: str) -> list[_Section]:
    """Split a data block into sections of ``key -> [entries]``; indented lines continue the last entry."""
    sections: list[_Section] = []
    entries: list[str] = []
    for line in block.splitlines():
        if not line.strip():
            continue
        if line.startswith("## "):
            name, _, weight = line[3:].partition(" ")
            sections.append(_Section(name, float(weight) if weight else 1.0))
        elif line.startswith("  "):
            entries[-1] = f"{entries[-1]} {line.strip()}"
        else:
            key, _, value = line.partition(":")
            entries = sections[-1].fields.setdefault(key.strip(), [])
            entries.append(value.strip())
    return sections


def _slots(section: _Section) -> dict[str, tuple[str, ...]]:
    return {
        key.removeprefix("slot ").strip(): tuple(part.strip() for entry in entries for part in entry.split(" | "))
        for key, entries in section.fields.items()
        if key.startswith("slot ")
    }


def _topic(section: _Section) -> _Topic:
    fields = section.fields
    return _Topic(
        name=section.name,
        weight=section.weight,
        slots=_slots(section),
        asks=tuple(fields.get("ask", ())),
        contexts=tuple(fields.get("ctx", ())),
        follow_ups=tuple(fields.get("fol", ())),
    )


def _chain_spec(section: _Section) -> _ChainSpec:
    fields = section.fields
    return _ChainSpec(
        topic=section.name,
        predecessor=fields["pre"][0],
        update=fields["upd"][0],
        question=fields["q"][0],
        near=tuple(fields.get("near", ())),
    )


def _proper_nouns(texts: Iterable[str], names: Iterable[str]) -> frozenset[str]:
    """Words written capitalised mid-sentence (or in slot values) at least as often as in lower case.

    They are never lower-cased when a sentence is re-joined after a lead-in such as "Oh, and".
    """
    capitalised: Counter[str] = Counter()
    lower: Counter[str] = Counter()
    for text in texts:
        words = text.replace("<", " ").replace("|", " ").replace(">", " ").split()
        for previous, word in itertools.pairwise(words):
            match = _FIRST_WORD.match(word.lstrip("'({"))
            if match is None:
                continue
            token = match.group(0)
            if token[0].islower():
                lower[token] += 1
            elif not previous.endswith(_SENTENCE_END):
                capitalised[token] += 1
    for name in names:
        capitalised.update(token for token in _FIRST_WORD.findall(name) if token[0].isupper())
    found = {word for word, count in capitalised.items() if count >= lower[word.lower()]}
    return frozenset((found | {"Mum", "Dad"}) - {"Let", "These"})


_GENERAL = _sections(_GENERAL_TEXT)[0]
_TOPICS = tuple(_topic(section) for section in _sections(_TOPIC_TEXT))
_CHAIN_SPECS = tuple(_chain_spec(section) for section in _sections(_CHAIN_TEXT))
_PROPER = _proper_nouns(
    [*_TOPIC_TEXT.splitlines(), *_CHAIN_TEXT.splitlines()],
    [value for topic in _TOPICS for values in topic.slots.values() for value in values]
    + [value for values in _slots(_GENERAL).values() for value in values],
)


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r" ([,.!?;:])", r"\1", text)
    return text[:1].upper() + text[1:]


def _lower_first(sentence: str) -> str:
    """Lower-case the first letter after a lead-in ("So, can you ...") unless it starts a name or acronym."""
    match = _FIRST_WORD.match(sentence)
    if match is None:
        return sentence
    word = match.group(0)
    if word == "I" or word in _PROPER or (len(word) > 1 and word.isupper()):
        return sentence
    return sentence[0].lower() + sentence[1:]


# ---------------------------------------------------------------------------------------------------
# Composition
# ---------------------------------------------------------------------------------------------------

_SHAPES = ("short", "standard", "ask_first", "news", "long")
_SHAPE_WEIGHTS = (0.24, 0.41, 0.14, 0.12, 0.09)
_CASUAL_RATE = 0.06  # share of turns typed all in lower case, as some people do


class _Writer:
    """Draws pieces from shuffled decks (every piece is used before any repeats) and joins them into turns."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._decks: dict[str, list[str]] = {}
        self._filled: dict[tuple[str, str], str] = {}
        self._general_slots = _slots(_GENERAL)
        self._topics = {topic.name: topic for topic in _TOPICS}
        self._topic_deck = [topic.name for topic in _TOPICS for _ in range(round(topic.weight * 4))]

    # -- drawing ------------------------------------------------------------------------------------

    def _draw(self, key: str, items: Sequence[str]) -> str:
        deck = self._decks.setdefault(key, [])
        if not deck:
            deck.extend(items)
            self._rng.shuffle(deck)
        return deck.pop()

    def _maybe(self, probability: float) -> bool:
        return self._rng.random() < probability

    def topic(self, name: str) -> _Topic:
        return self._topics[name]

    def next_topic(self, avoid: _Topic | None = None) -> _Topic:
        while True:
            topic = self._topics[self._draw("topics", self._topic_deck)]
            if topic is not avoid:
                return topic

    def _fill(self, template: str, topic: _Topic | None) -> str:
        text = _ALTERNATION.sub(lambda match: self._rng.choice(match.group(1).split("|")), template)
        text = _SLOT.sub(lambda match: self._slot(match.group(1), topic), text)
        # One user's life stays true: the first filling of a template is the one the user repeats
        # later ("we have about 58 euros left" every time that comes up, never 89 the next), so
        # the only facts that change in a history are its chains'. Filled afresh and then
        # replaced, so the random stream (and every other turn) is what it was.
        return self._filled.setdefault((template, topic.name if topic else ""), _tidy(text))

    def _slot(self, name: str, topic: _Topic | None) -> str:
        if name.startswith("#"):
            low, high = name[1:].split("-")
            return str(self._rng.randint(int(low), int(high)))
        if topic is not None and name in topic.slots:
            return self._draw(f"{topic.name}:{name}", topic.slots[name])
        return self._draw(f":{name}", self._general_slots[name])

    def ask(self, topic: _Topic) -> str:
        return self._fill(self._draw(f"{topic.name}/ask", topic.asks), topic)

    def follow_up(self, topic: _Topic) -> str:
        return self._fill(self._draw(f"{topic.name}/fol", topic.follow_ups), topic)

    def contexts(self, topic: _Topic, count: int) -> list[str]:
        templates: list[str] = []
        for _ in range(min(count, len(topic.contexts))):
            template = self._draw(f"{topic.name}/ctx", topic.contexts)
            if template not in templates:
                templates.append(template)
        return [self._fill(template, topic) for template in templates]

    def general(self, kind: str) -> str:
        return self._fill(self._draw(f"/{kind}", _GENERAL.fields[kind]), None)

    def lead(self, kind: str, sentence: str) -> str:
        """Prefix a sentence with a lead-in such as "Anyway," (kind "trans") or "Oh, and" (kind "also")."""
        prefix = self.general(kind)
        for _ in range(3):  # avoid "..., but I'm keen but ..."
            if not (prefix.endswith("but") and " but " in sentence):
                break
            prefix = self.general(kind)
        return f"{prefix} {sentence if prefix.endswith(('.', '!', '?')) else _lower_first(sentence)}"

    def _opening(self, open_rate: float, aside_rate: float) -> list[str]:
        parts = [self.general("aside")] if self._maybe(aside_rate) else []
        if self._maybe(open_rate):
            parts.insert(0, self.general("open"))
        return parts

    def _finish(self, parts: list[str]) -> str:
        text = re.sub(r" ?\n\n ?", "\n\n", " ".join(parts)).strip()
        if self._maybe(_CASUAL_RATE):
            text = text.lower().rstrip(".")
        return text

    # -- turn shapes ----------------------------------------------------------------------------------

    def distractor(self, topic: _Topic) -> str:
        shape = self._rng.choices(_SHAPES, _SHAPE_WEIGHTS)[0]
        builders = {
            "short": self._short,
            "standard": self._standard,
            "ask_first": self._ask_first,
            "news": self._news,
            "long": self._long,
        }
        return self._finish(builders[shape](topic))

    def _closing(self, topic: _Topic, follow_rate: float, close_rate: float) -> list[str]:
        parts = [self.follow_up(topic)] if topic.follow_ups and self._maybe(follow_rate) else []
        if self._maybe(close_rate):
            parts.append(self.general("close"))
        return parts

    def _short(self, topic: _Topic) -> list[str]:
        return [*self._opening(0.3, 0.0), self.ask(topic), *self._closing(topic, 0.35, 0.2)]

    def _context_count(self) -> int:
        return 1 if self._maybe(0.7) else 2

    def _standard(self, topic: _Topic) -> list[str]:
        parts = self._opening(0.25, 0.08) + self.contexts(topic, self._context_count())
        ask = self.ask(topic)
        parts.append(self.lead("trans", ask) if self._maybe(0.3) else ask)
        return parts + self._closing(topic, 0.3, 0.25)

    def _ask_first(self, topic: _Topic) -> list[str]:
        parts = [*self._opening(0.2, 0.0), self.ask(topic), *self.contexts(topic, self._context_count())]
        return parts + self._closing(topic, 0.2, 0.2)

    def _news(self, topic: _Topic) -> list[str]:
        parts = [self.general("aside"), *self.contexts(topic, self._context_count())]
        parts.append(self.lead("trans", self.ask(topic)))
        return parts + self._closing(topic, 0.15, 0.25)

    def _asks(self, topic: _Topic, count: int) -> list[str]:
        templates: list[str] = []
        for _ in range(count):
            template = self._draw(f"{topic.name}/ask", topic.asks)
            if template not in templates:
                templates.append(template)
        return [self._fill(template, topic) for template in templates]

    def _long(self, topic: _Topic) -> list[str]:
        """A rambling multi-paragraph turn: background, one or two questions, then one to three other subjects."""
        parts = self._opening(0.6, 0.5) + self.contexts(topic, self._rng.randint(3, 5))
        asks = self._asks(topic, self._rng.choice((1, 2)))
        parts += [self.lead("trans", asks[0]), *asks[1:], *self._closing(topic, 0.7, 0.0)]
        for _ in range(self._rng.choice((1, 2, 2, 3, 4))):
            other = self.next_topic(avoid=topic)
            extra = [*self.contexts(other, self._rng.randint(1, 2)), *self._asks(other, self._rng.choice((1, 2)))]
            extra[0] = self.lead("also", extra[0])
            parts += ["\n\n", *extra, *self._closing(other, 0.4, 0.0)]
        if self._maybe(0.5):
            parts.append(self.general("close"))
        return parts

    def _aside_block(self, topic: _Topic) -> list[str]:
        """An unrelated question tacked on at the end ("Oh, and ..."), sometimes with a line of its context."""
        other = self.next_topic(avoid=topic)
        block = [*self.contexts(other, 1), self.ask(other)] if self._maybe(0.35) else [self.ask(other)]
        block[0] = self.lead("also", block[0])
        return block

    def embed(self, core: str, topic: _Topic) -> str:
        """Wrap a hand-written core (a chain turn or a near distractor) in ordinary chat."""
        parts = self._opening(0.25, 0.12)
        placement = self._rng.random()
        if placement < 0.35:
            parts += [*self.contexts(topic, 1), core]
        elif placement < 0.55:
            parts += [core, *self.contexts(topic, 1)]
        else:
            parts.append(core)
        if self._maybe(0.22):
            parts += self._aside_block(topic)
        if self._maybe(0.3):
            parts.append(self.general("close"))
        return self._finish(parts)


# ---------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------


def _word_count(text: str) -> int:
    return len(text.split())


DEFAULT_SEED = 20261204


@dataclass(frozen=True)
class ChatHistory:
    """One user's history with its labels: ``haystack`` as :func:`chat_histories` returns it, and
    which of its turns are "near" turns (same narrow subject as a chain, not stating its fact)."""

    haystack: tuple[str, ...]
    chains: tuple[ChatChain, ...]
    near: dict[str, int]  # near turn -> index of its chain in ``chains``


# The kinds of general sentence that wrap a turn's content: openers, lead-ins, sign-offs.
WRAPPER_KINDS = ("open", "trans", "close")


def wrapper_pattern() -> re.Pattern[str]:
    """The generator's own openers, lead-ins and sign-offs (WRAPPER_KINDS), every alternative of
    each spelled out, as one case-blind pattern. Two turns that differ only in these words say
    the same thing: the chat scorer (evaluation.chat_store.near_exact) strips them before
    it compares two turns."""
    phrases: set[str] = set()
    for kind in WRAPPER_KINDS:
        for template in _GENERAL.fields[kind]:
            pieces = re.split(r"<([^>]*)>", template)
            options = [piece.split("|") if n % 2 else [piece] for n, piece in enumerate(pieces)]
            phrases.update("".join(chosen) for chosen in itertools.product(*options))
    # Longest first: an alternation takes the first that matches, and "Right, so" must be taken
    # whole before "Right,".
    alternatives = [re.escape(phrase) for phrase in sorted(phrases, key=lambda p: (-len(p), p)) if phrase.strip()]
    # Whole words only: "So," is a lead-in, the end of "also," is not.
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def chat_history(seed: int = DEFAULT_SEED) -> ChatHistory:
    """The labelled history of ``seed``: the same turns, in the same order, as ``chat_histories(seed)``."""
    rng = random.Random(seed)
    writer = _Writer(rng)
    chains = [
        ChatChain(
            predecessor=writer.embed(spec.predecessor, writer.topic(spec.topic)),
            update=writer.embed(spec.update, writer.topic(spec.topic)),
            question=spec.question,
        )
        for spec in _CHAIN_SPECS
    ]
    seen = {chain.predecessor for chain in chains}
    labelled = [
        (writer.embed(core, writer.topic(spec.topic)), index)
        for index, spec in enumerate(_CHAIN_SPECS)
        for core in spec.near
    ]
    near = dict(labelled)
    distractors = [turn for turn, _index in labelled]
    seen.update(distractors)
    attempts = 0
    while len(distractors) < DISTRACTOR_COUNT:
        attempts += 1
        if attempts > DISTRACTOR_COUNT * 20:
            raise RuntimeError("could not compose enough distinct distractor turns")
        text = writer.distractor(writer.next_topic())
        if text in seen or not MIN_WORDS <= _word_count(text) <= MAX_WORDS:
            continue
        seen.add(text)
        distractors.append(text)
    haystack = distractors + [chain.predecessor for chain in chains]
    rng.shuffle(haystack)
    return ChatHistory(tuple(haystack), tuple(chains), near)


def chat_histories(seed: int = DEFAULT_SEED) -> tuple[list[str], list[ChatChain]]:
    """(haystack, chains): haystack = all other user turns of the same user (distractors) PLUS every chain's
    predecessor; chains = ~80 update chains."""
    history = chat_history(seed)
    return list(history.haystack), list(history.chains)


def _main() -> None:
    haystack, chains = chat_histories()
    predecessors = {chain.predecessor for chain in chains}
    lengths = sorted(_word_count(turn) for turn in haystack)
    deciles = statistics.quantiles(lengths, n=10)
    hard = sum(1 for spec in _CHAIN_SPECS if len(spec.near) >= 2)
    print(f"haystack turns: {len(haystack)}", end=" ")
    print(f"({len(haystack) - len(predecessors)} distractors + {len(predecessors)} predecessors)")
    print(f"chains: {len(chains)} ({hard} with 2-4 same-subject hard distractors); topics: {len(_TOPICS)}")
    print(
        f"words per haystack turn: min {lengths[0]}, p10 {deciles[0]:.0f}, median {statistics.median(lengths):.0f}, "
        f"p90 {deciles[-1]:.0f}, max {lengths[-1]}"
    )
    bins = ((8, 20), (21, 50), (51, 100), (101, 250), (251, MAX_WORDS))
    print("  " + ", ".join(f"{low}-{high}: {sum(low <= n <= high for n in lengths)}" for low, high in bins))
    updates = [_word_count(chain.update) for chain in chains]
    print(f"words per update: min {min(updates)}, median {statistics.median(updates):.0f}, max {max(updates)}")
    for index in (0, 1, 2, 9, 33):
        chain = chains[index]
        print(f"\n--- chain {index}")
        print(f"PREDECESSOR: {chain.predecessor}\nUPDATE: {chain.update}\nQUESTION: {chain.question}")


if __name__ == "__main__":
    _main()
