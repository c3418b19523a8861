//! Magic and resonance from a sheet: Force limits, drain type at Force = Magic and
//! Force = Magic + 1, drain on the caster's monitor, sustaining penalties, summoning,
//! threading and compiling.

use saikoro::dice::FixedRoller;
use saikoro::systems::shadowrun4::magic::{
    SpellRequest, SpellResult, SummonRequest, cast_spell, summon_spirit,
};
use saikoro::systems::shadowrun4::resonance::{CompileRequest, ThreadRequest, compile, thread};
use saikoro::systems::shadowrun4::{
    Attribute, Attributes, Character, DamageType, RollSpec, RuleError, error::Quantity,
};

fn mage() -> Character {
    Character::new(
        "Aiko",
        Attributes {
            body: 3,
            agility: 3,
            reaction: 3,
            strength: 2,
            charisma: 4,
            intuition: 4,
            logic: 5,
            willpower: 5,
            edge: 2,
            magic: 4,
            ..Attributes::default()
        },
    )
    .unwrap()
    .with_skill("spellcasting", 4)
    .unwrap()
    .with_skill("summoning", 3)
    .unwrap()
}

fn fixed(f: &[u32]) -> FixedRoller {
    FixedRoller::new(f.iter().copied())
}

fn stunbolt(c: &Character, force: u32) -> SpellRequest {
    SpellRequest {
        cast: RollSpec::new(c.pool(Attribute::Magic, "spellcasting", &[]).unwrap()),
        force,
        magic: c.attributes.magic,
        resistance: Some(RollSpec::dice(3)),
        threshold: None,
        drain_value: 3,
        // Hermetic: Willpower + Logic, untouched by wounds and sustaining.
        drain: RollSpec::new(c.resistance_pool(Attribute::Willpower, Attribute::Logic).unwrap()),
    }
}

// Cast 8 dice: 3 hits. Resist 3 dice: 1 hit. Drain 10 dice: 1 hit → 2 boxes.
const DICE: [u32; 21] = [5, 5, 6, 1, 2, 3, 4, 2, 5, 2, 3, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2];

#[test]
fn drain_is_stun_at_force_equal_magic_and_physical_one_above() {
    let aiko = mage();
    let at = cast_spell(&stunbolt(&aiko, 4), &mut fixed(&DICE)).unwrap();
    assert_eq!((at.hits, at.net_hits, at.result), (3, 2, SpellResult::Success));
    assert_eq!((at.drain.damage_type, at.drain.boxes), (DamageType::Stun, 2));
    let above = cast_spell(&stunbolt(&aiko, 5), &mut fixed(&DICE)).unwrap();
    assert_eq!(
        (above.drain.damage_type, above.drain.boxes),
        (DamageType::Physical, 2)
    );

    // Drain lands on the caster's own monitor.
    let (tired, _) = aiko.apply_damage(at.drain.damage_type, at.drain.boxes).unwrap();
    assert_eq!(tired.stun, 2);
}

#[test]
fn force_is_capped_at_twice_magic_and_hits_at_force() {
    let aiko = mage();
    assert_eq!(
        cast_spell(&stunbolt(&aiko, 9), &mut fixed(&[])).unwrap_err(),
        RuleError::OutOfRange {
            what: Quantity::Force,
            value: 9,
            min: 1,
            max: 8
        }
    );
    // Force 2: three hits count as two.
    let o = cast_spell(&stunbolt(&aiko, 2), &mut fixed(&DICE)).unwrap();
    assert_eq!((o.raw_hits, o.hits, o.net_hits), (3, 2, 1));
}

#[test]
fn sustaining_costs_two_dice_per_spell_but_not_on_drain() {
    let aiko = mage().set_sustained(2).unwrap();
    let req = stunbolt(&aiko, 4);
    assert_eq!(req.cast.pool.total(), Ok(4));
    assert_eq!(req.drain.pool.total(), Ok(10));
}

#[test]
fn summoning_services_and_drain() {
    let aiko = mage();
    let req = SummonRequest {
        summon: RollSpec::new(aiko.pool(Attribute::Magic, "summoning", &[]).unwrap()),
        force: 5,
        magic: 4,
        drain: RollSpec::new(
            aiko.resistance_pool(Attribute::Willpower, Attribute::Logic)
                .unwrap(),
        ),
    };
    // Summoner 7 dice: 4 hits; spirit 5 dice: 2 hits → 2 services; drain 4 Physical (5 > 4),
    // 10 drain dice with 1 hit → 3 boxes.
    let faces = [5, 5, 6, 6, 1, 2, 3, 5, 5, 2, 2, 2, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2];
    let o = summon_spirit(&req, &mut fixed(&faces)).unwrap();
    assert_eq!((o.summoner_hits, o.spirit_hits, o.services), (4, 2, 2));
    assert_eq!(
        (o.drain.value, o.drain.damage_type, o.drain.boxes),
        (4, DamageType::Physical, 3)
    );
}

#[test]
fn threading_and_compiling_fade_by_rating() {
    let req = ThreadRequest {
        thread: RollSpec::dice(6),
        base_rating: 2,
        resonance: 3,
        fading: RollSpec::dice(4),
    };
    // 2 hits: rating 4 > Resonance 3 → Physical fading 2; 4 fading dice, 1 hit.
    let o = thread(&req, &mut fixed(&[5, 6, 2, 2, 2, 2, 5, 2, 2, 2])).unwrap();
    assert_eq!(
        (o.rating, o.fading.value, o.fading.damage_type, o.fading.boxes),
        (4, 2, DamageType::Physical, 1)
    );
    let c = CompileRequest {
        compile: RollSpec::dice(5),
        rating: 3,
        resonance: 3,
        fading: RollSpec::dice(4),
    };
    // 1 hit against the sprite's 2: not compiled; fading 4 Stun (rating = Resonance).
    let o = compile(&c, &mut fixed(&[5, 2, 2, 2, 2, 5, 6, 2, 2, 2, 2, 2])).unwrap();
    assert_eq!(
        (o.compiled, o.tasks, o.fading.value, o.fading.damage_type),
        (false, 0, 4, DamageType::Stun)
    );
}
